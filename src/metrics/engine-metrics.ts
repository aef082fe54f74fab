/**
 * OpenTelemetry metrics of a LoopEngine, through `@opentelemetry/api`: nothing at all (not even a clock
 * read) until the host has registered a MeterProvider (an SDK) before making the engine, or passes a
 * `meter`. Labels are bounded: never a session id, a tool name or a custom detector's kind.
 *
 * | instrument | kind | unit | attributes |
 * |---|---|---|---|
 * | `loopwatch.checks` | counter | `{call}` | `operation`: check, propose, record |
 * | `loopwatch.verdicts` | counter | `{verdict}` | `kind` (built-in kinds, else `custom`), `action` |
 * | `loopwatch.decisions` | counter | `{decision}` | `phase`, `action`: allow, warn, ask, deny, stop |
 * | `loopwatch.sessions.live` | observable up-down counter | `{session}` | |
 * | `loopwatch.sessions.dropped` | counter | `{session}` | `reason`: ended, evicted, expired |
 * | `loopwatch.check.duration` | histogram | `s` | `operation`: check, batch, propose, record, decide_batch |
 */
import { createRequire } from 'node:module';
import type { Attributes, Counter, Histogram, Meter } from '@opentelemetry/api';
import type * as OtelApi from '@opentelemetry/api';
import type { LiveDecision } from '../live/live-call.js';
import type { Verdict } from '../types.js';

/** The meter's name (the instrumentation scope). */
export const METER_NAME = 'loopwatch';

/** The built-in detectors' kinds (metrics label other kinds `custom`, so labels stay bounded). */
export const BUILT_IN_KINDS: ReadonlySet<string> = new Set(['exact_repeat', 'frequency', 'cycle', 'semantic', 'similar_args', 'result_repeat', 'dead_end', 'state_repeat', 'chanting']);

/**
 * Where @opentelemetry/api 1.x keeps what was registered globally (shared by every copy of the API in the
 * process): looked at first, so that with nothing registered the API is not even loaded.
 */
const OTEL_GLOBAL = Symbol.for('opentelemetry.js.api.1');

/** What an engine's operation was. */
export type Operation = 'check' | 'batch' | 'propose' | 'record' | 'decide_batch';

/** Attribute sets made once, so recording allocates nothing. */
function attrsBy<K extends string>(key: string, values: readonly K[]): Readonly<Record<K, Attributes>> {
  return Object.fromEntries(values.map((v): [K, Attributes] => [v, Object.freeze({ [key]: v })])) as Record<K, Attributes>;
}

const OPERATIONS = attrsBy<Operation>('operation', ['check', 'batch', 'propose', 'record', 'decide_batch']);

/** An engine's instruments. */
export class EngineMetrics {
  private readonly checks: Counter;
  private readonly verdicts: Counter;
  private readonly decisions: Counter;
  private readonly dropped: Counter;
  private readonly duration: Histogram;
  private readonly verdictAttrs = new Map<string, Attributes>();
  private readonly decisionAttrs = new Map<string, Attributes>();

  constructor(meter: Meter, liveSessions: () => number) {
    this.checks = meter.createCounter('loopwatch.checks', { description: 'Tool calls checked (recorded, or checked before they ran)', unit: '{call}' });
    this.verdicts = meter.createCounter('loopwatch.verdicts', { description: 'Verdicts given, by loop kind and action', unit: '{verdict}' });
    this.decisions = meter.createCounter('loopwatch.decisions', { description: 'Two-phase decisions, by phase and action', unit: '{decision}' });
    this.dropped = meter.createCounter('loopwatch.sessions.dropped', { description: 'Sessions ended, evicted or expired', unit: '{session}' });
    this.duration = meter.createHistogram('loopwatch.check.duration', { description: 'Time of one engine operation (a call or a batch)', unit: 's' });
    meter.createObservableUpDownCounter('loopwatch.sessions.live', { description: 'Sessions live now', unit: '{session}' }).addCallback((r) => r.observe(liveSessions()));
  }

  /** Counts `calls` calls of an operation that took `seconds`. */
  operation(op: Operation, calls: number, seconds: number): void {
    const a = OPERATIONS[op];
    this.checks.add(calls, op === 'batch' ? OPERATIONS.check : op === 'decide_batch' ? OPERATIONS.propose : a);
    this.duration.record(seconds, a);
  }

  /** Counts a verdict. */
  verdict(v: Verdict): void {
    const kind = BUILT_IN_KINDS.has(v.kind) ? v.kind : 'custom';
    const key = `${kind}/${v.action}`;
    let a = this.verdictAttrs.get(key);
    if (a === undefined) this.verdictAttrs.set(key, (a = Object.freeze({ kind, action: v.action })));
    this.verdicts.add(1, a);
  }

  /** Counts a two-phase decision (and its verdict). */
  decision(d: LiveDecision): void {
    const key = `${d.phase}/${d.action}`;
    let a = this.decisionAttrs.get(key);
    if (a === undefined) this.decisionAttrs.set(key, (a = Object.freeze({ phase: d.phase, action: d.action })));
    this.decisions.add(1, a);
    if (d.verdict !== null && (d.phase === 'record' || d.action === 'deny' || d.action === 'stop')) this.verdict(d.verdict);
  }

  /** Counts a dropped session. */
  droppedSession(reason: 'ended' | 'evicted' | 'expired'): void {
    this.dropped.add(1, { reason });
  }
}

/**
 * The engine's instruments on `meter`, or on the global MeterProvider's meter; null when metrics are off
 * (`meter: false`) or no MeterProvider is registered (then the engine does not even read the clock).
 */
export function engineMetrics(meter: Meter | false | undefined, liveSessions: () => number): EngineMetrics | null {
  if (meter === false) return null;
  if (meter !== undefined) return new EngineMetrics(meter, liveSessions);
  const registered = (globalThis as Record<symbol, { metrics?: unknown } | undefined>)[OTEL_GLOBAL];
  if (registered?.metrics === undefined) return null;
  const api = createRequire(import.meta.url)('@opentelemetry/api') as typeof OtelApi;
  const m = api.metrics.getMeter(METER_NAME);
  if (m instanceof api.createNoopMeter().constructor) return null;
  return new EngineMetrics(m, liveSessions);
}
