/**
 * Parallel tool calls in one step, checked two-phase (propose all of a step's calls, then record them): the
 * very same failing call made three times a step is a failure repeated three times, as it would be one by
 * one. Before the fix a step's calls counted as one turn, so three identical failures read as one and the
 * second step's three proposals were all allowed: the first warning came at the 7th proposal (par1, found
 * by newuser16 through every SDK's loop). A step of different reads, the same read of different files, or
 * different calls failing on one error stay as quiet as before. Both engines.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { LiveCall } from '../src/index.js';
import { ENGINES, type Engine } from './helpers/verdicts.js';

/** The calls of one step (no outcome: each step's outcome is given by `outcome`). */
type Step = readonly Omit<LiveCall, 'id'>[];

/**
 * Plays `steps` as an SDK loop does: each step's calls proposed together, those not denied run and recorded
 * with `outcome`; returns every decision that is not allow, as `step.call:phase:action`.
 */
function play(engine: Engine, steps: readonly Step[], outcome: (step: number, call: number) => Partial<LiveCall>): string[] {
  const d = new LoopDetector({ engine }, 's');
  const out: string[] = [];
  try {
    steps.forEach((calls, s) => {
      const ran: LiveCall[] = [];
      calls.forEach((c, k) => {
        const call = { ...c, id: `toolu_${s}_${k}` };
        const p = d.propose(call);
        if (p.action !== 'allow') out.push(`${s}.${k}:p:${p.action}`);
        if (p.action === 'allow' || p.action === 'warn') ran.push({ ...call, ...outcome(s, k) });
      });
      ran.forEach((c, k) => {
        const r = d.record(c);
        if (r.action !== 'allow') out.push(`${s}.${k}:r:${r.action}`);
      });
    });
  } finally {
    d.dispose();
  }
  return out;
}

/** Plays the same calls one by one: propose, run, record. */
function serial(engine: Engine, calls: Step, outcome: Partial<LiveCall>): string[] {
  return play(engine, calls.map((c) => [c]), () => outcome);
}

const build: Omit<LiveCall, 'id'> = { tool: 'Bash', args: { command: 'npm run build' } };
const failure = { error: "Exit code 2\nsrc/index.ts(3,1): error TS2304: Cannot find name 'foo'." };
const times = <T>(n: number, x: T): T[] => Array.from({ length: n }, () => x);

describe.each(ENGINES)('identical failing calls made in parallel (%s engine, two-phase)', (engine) => {
  it('should warn by the third identical failure and deny the next step, as one by one', () => {
    const got = play(engine, times(4, times(3, build)), () => failure);
    // one by one: warned at the 3rd call, denied at the 4th
    expect(serial(engine, times(4, build), failure)).toEqual(['2.0:p:warn', '3.0:p:deny']);
    // three a step: the third failure of the first step is warned when it is recorded (its proposal showed
    // nothing: none had failed yet), the second step is denied and stopped; before the fix the second step
    // was allowed whole and the first warning came at the third step (the 7th proposal)
    expect(got.slice(0, 4)).toEqual(['0.2:r:warn', '1.0:p:deny', '1.1:p:stop', '1.2:p:stop']);
  });

  it('should warn the second step when one identical call a step failed twice before', () => {
    // two identical failing calls, then the same call again: warned on its proposal, as the 3rd serial call
    const got = play(engine, [times(2, build), [build]], () => failure);
    expect(got).toEqual(['1.0:p:warn']);
  });

  it('should not warn on a step of identical calls that succeed', () => {
    const read: Omit<LiveCall, 'id'> = { tool: 'Read', args: { file_path: '/repo/src/index.ts' } };
    expect(play(engine, [times(3, read)], () => ({ result: 'export const x = 1;' }))).toEqual([]);
  });

  it('should stay quiet on steps of different reads, and of the same read of different files', () => {
    const files = (s: number) => Array.from({ length: 3 }, (_, k) => ({ tool: 'Read', args: { file_path: `/repo/src/part${s * 3 + k}.ts` } }));
    const mixed: Step = [{ tool: 'Read', args: { file_path: '/repo/README.md' } }, { tool: 'Grep', args: { pattern: 'TODO', path: '/repo/src' } }, { tool: 'Glob', args: { pattern: '**/*.ts' } }];
    expect(play(engine, [files(0), files(1), files(2)], (s, k) => ({ result: `export const part${s * 3 + k} = ${k};` }))).toEqual([]);
    expect(play(engine, [mixed], (_s, k) => ({ result: `answer ${k}` }))).toEqual([]);
    // different files failing on one error in one step is one decision failing once, as before
    expect(play(engine, [files(0)], () => ({ error: 'Error: EACCES: permission denied' }))).toEqual([]);
  });
});
