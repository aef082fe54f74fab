/**
 * Scripted agent runs for the SDK adapter tests: a shared live scenario played by a scripted model (one tool
 * call per step, call i with id `c<i>`), tools that answer from the script and count what really ran, a guard
 * that keeps every decision, and the checks every adapter must pass (stuck: warned, the model sees the warning,
 * then denied without running, then stopped; legitimate: never denied).
 */
import { expect } from 'vitest';
import { LiveGuard } from '../../src/index.js';
import type { LiveCall, LiveDecision } from '../../src/index.js';
import type { AdapterGuard } from '../../src/adapters/shared.js';
import type { LiveScenario, ScriptedCall } from './live-scenarios.js';

/** A guard that keeps every decision it gave (and the LiveGuard behind it). */
export class SpyGuard implements AdapterGuard {
  readonly decisions: LiveDecision[] = [];
  constructor(readonly inner: LiveGuard = new LiveGuard()) {}
  propose(session: string, call: LiveCall): LiveDecision {
    return this.keep(this.inner.propose(session, call));
  }
  record(session: string, call: LiveCall): LiveDecision {
    return this.keep(this.inner.record(session, call));
  }
  stopped(session: string): LiveDecision | undefined {
    return this.inner.stopped(session);
  }
  /** The proposals' actions, `allow` left out, as `action` strings in order. */
  proposals(): string[] {
    return this.decisions.filter((d) => d.phase === 'propose').map((d) => d.action);
  }
  private keep(d: LiveDecision): LiveDecision {
    this.decisions.push(d);
    return d;
  }
}

/**
 * A SpyGuard over a new LiveGuard (a restarted host) whose session `session` was restored from the snapshot
 * of a run loopwatch stopped (one that ran the same failing build again and again), and that stop.
 */
export function restoredStopped(session: string): { spy: SpyGuard; stop: LiveDecision } {
  const before = new LiveGuard();
  const call = { tool: 'bash', args: { command: 'make' } };
  for (let i = 0; i < 12 && before.stopped(session) === undefined; i++) {
    const d = before.propose(session, call);
    if (d.action === 'allow' || d.action === 'warn') before.record(session, { ...call, error: 'make: *** Error 2' });
  }
  const bytes = before.engine.snapshot(session) as Uint8Array;
  before.close();
  const spy = new SpyGuard();
  spy.inner.engine.restore(session, bytes);
  const stop = spy.stopped(session);
  expect(stop?.action).toBe('stop');
  return { spy, stop: stop as LiveDecision };
}

/** A guard whose engine throws inside every check (a per-tool identity function with a bug), and its reports. */
export function brokenGuard(tools: readonly string[]): { guard: SpyGuard; errors: Error[] } {
  const errors: Error[] = [];
  const identity = { identity: (): never => { throw new Error('identity bug'); } };
  const inner = new LiveGuard({ tools: Object.fromEntries(tools.map((t) => [t, identity])), onInternalError: (e) => void errors.push(e) });
  return { guard: new SpyGuard(inner), errors };
}

/** The scenario's tools and what ran: `run(i)` plays call i (returns its result, or throws its error). */
export class Script {
  readonly executed: number[] = [];
  constructor(readonly calls: readonly ScriptedCall[]) {}
  /** The distinct tool names. */
  get tools(): string[] {
    return [...new Set(this.calls.map((c) => c.tool))];
  }
  /** Call i's id. */
  static id(i: number): string {
    return `c${i}`;
  }
  /** The index of a call id. */
  static index(id: string): number {
    return Number(id.slice(1));
  }
  run(i: number): string {
    this.executed.push(i);
    const c = this.calls[i] as ScriptedCall;
    if (c.error !== undefined) throw new Error(c.error);
    return c.result ?? '';
  }
}

/** Whether `message` is in what a model received (JSON-escaped, as it sits inside a serialized prompt). */
export function received(inputs: readonly unknown[], message: string): boolean {
  const needle = JSON.stringify(message).slice(1, -1);
  return inputs.some((x) => (typeof x === 'string' ? x : JSON.stringify(x)).includes(needle) || (typeof x === 'string' && x.includes(message)));
}

/**
 * The checks for a stuck scenario: the first warning came before the first denial and reached the model's
 * next input; the denied call did not run and the model read why; the run stopped, for a loop the caller
 * can read from the guard, before the script ran out.
 */
export function expectStuckRun(s: LiveScenario, spy: SpyGuard, script: Script, inputs: readonly unknown[], session: string): LiveDecision {
  const actions = spy.proposals();
  const warn = spy.decisions.find((d) => d.phase === 'propose' && d.action === 'warn');
  const firstWarn = actions.indexOf('warn');
  const firstDeny = actions.indexOf('deny');
  expect(firstWarn, actions.join(' ')).toBeGreaterThanOrEqual(0);
  expect(firstDeny, actions.join(' ')).toBeGreaterThan(firstWarn);
  expect(received(inputs, warn?.message as string), 'the model saw the warning').toBe(true);
  const deny = spy.decisions.find((d) => d.phase === 'propose' && d.action === 'deny') as LiveDecision;
  expect(script.executed).not.toContain(Script.index(deny.id as string));
  expect(received(inputs, deny.message as string), 'the model saw why the call was denied').toBe(true);
  const stop = spy.stopped(session);
  expect(stop?.action).toBe('stop');
  expect(stop?.message).toContain('The run is being stopped.');
  expect(script.executed.length).toBeLessThan(s.calls.length);
  return stop as LiveDecision;
}

/** The checks for legitimate work: every scripted call ran, none was denied, the run was not stopped. */
export function expectLegitimateRun(spy: SpyGuard, script: Script, session: string): void {
  expect(spy.proposals().filter((a) => a === 'deny' || a === 'stop')).toEqual([]);
  expect(script.executed).toEqual(script.calls.map((_, i) => i));
  expect(spy.stopped(session)).toBeUndefined();
}

/** The checks for a run whose guard failed inside every check: every call ran, all allowed, one report. */
export function expectFailedOpenRun(spy: SpyGuard, errors: readonly Error[], script: Script): void {
  expect(script.executed).toEqual(script.calls.map((_, i) => i));
  expect(spy.decisions.length).toBeGreaterThan(0);
  expect(spy.decisions.every((d) => d.action === 'allow' && d.failedOpen === true)).toBe(true);
  expect(errors).toHaveLength(1);
  expect(errors[0]?.message).toMatch(/identity bug/);
}
