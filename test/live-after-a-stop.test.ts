/**
 * After a stop, the next different call (a new user's walk through `loopwatch mcp`, session s22): a missing
 * file read six times (failed, failed, failed and warned, denied, stopped, stopped), then reads of a
 * different file that exists.
 *
 * - The first read of the other file is the agent moving on, what the warning asked for: not a `semantic`
 *   loop at confidence 1.00 "since call #0" (its path is close to the missing one's, and the three failures
 *   of the one call were kept as a stall of failures at its proposal: another-call-after-one-failing.ts).
 * - A stop refuses the loop that was stopped, and other work goes through: the other file read a third time
 *   alike is a new loop, begun after the block, warned at its first sighting (ladder.ts: a block climbs
 *   keyed to its loop), then refused at the next; the missing file is still refused.
 *
 * Two-phase, both engines, the default options; then the ladder alone.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { LiveCall } from '../src/index.js';
import { BLOCK_OFFSET, Ladder } from '../src/policy/ladder.js';
import { ENGINES } from './helpers/verdicts.js';

const DIR = '/home/me/app/files';
const MISSING: LiveCall = { tool: 'read_text_file', args: { path: `${DIR}/missing.txt` }, error: `ENOENT: no such file or directory, open '${DIR}/missing.txt'` };
const OTHER: LiveCall = { tool: 'read_text_file', args: { path: `${DIR}/a.txt` }, result: 'hello\n' };
const LIST: LiveCall = { tool: 'list_directory', args: { path: DIR }, result: '[FILE] a.txt' };

/** Proposes then records each call (ids c0, c1, ...; a refused call is not recorded): `P<i>:<action> <kind>` of each proposal not allowed, `R<i>:...` of each record not allowed. */
function walk(calls: readonly LiveCall[], engine: (typeof ENGINES)[number]): string[] {
  const d = new LoopDetector({ engine }, 'walk');
  const out: string[] = [];
  try {
    for (const [i, c] of calls.entries()) {
      const p = d.propose({ ...c, id: `c${i}` });
      if (p.action !== 'allow') out.push(`P${i}:${p.action} ${p.verdict?.kind ?? ''}`);
      if (p.action === 'deny' || p.action === 'stop') continue;
      const r = d.record({ ...c, id: `c${i}` });
      if (r.action !== 'allow') out.push(`R${i}:${r.action} ${r.verdict?.kind ?? ''}`);
    }
  } finally {
    d.dispose();
  }
  return out;
}

const stopped = Array.from({ length: 6 }, () => MISSING);
/** What the missing file's six reads get, as docs/mcp.md shows for a call failing alike. */
const STOPPED = ['P2:warn exact_repeat', 'P3:deny exact_repeat', 'P4:stop exact_repeat', 'P5:stop exact_repeat'];

describe.each(ENGINES)('after a stop, the next different call (%s engine)', (engine) => {
  it('should stop the missing file read again and again, as before', () => {
    expect(walk(stopped, engine)).toEqual(STOPPED);
  });

  it('should let the first read of another file run without a warning', () => {
    expect(walk([...stopped, OTHER], engine)).toEqual(STOPPED);
  });

  it('should still warn a similar call after similar calls that each failed (a stall of failures)', () => {
    const tries = ['missing.txt', 'Missing.txt', 'missing.text'].map((name): LiveCall => ({ tool: 'read_text_file', args: { path: `${DIR}/${name}` }, error: `ENOENT: no such file or directory, open '${DIR}/${name}'` }));
    const got = walk([...tries, OTHER], engine);
    expect(got.filter((g) => g.startsWith('P3:'))).toEqual(['P3:warn dead_end']);
  });

  it('should warn, not stop, a different call repeated after the stop at its first sighting, and refuse it at the next', () => {
    expect(walk([...stopped, OTHER, OTHER, OTHER, OTHER], engine)).toEqual([...STOPPED, 'P8:warn exact_repeat', 'P9:stop exact_repeat']);
  });

  it('should go on refusing the call that was stopped after other work, and let the other work run', () => {
    expect(walk([...stopped, LIST, OTHER, MISSING, LIST], engine)).toEqual([...STOPPED, 'P8:stop exact_repeat']);
  });
});

describe('the ladder after a block', () => {
  const A = 11;
  const B = 22;
  /** Climbed to break by the loop A (begun at 0), then a block of A's proposal that would have been call 3. */
  const blocked = (): Ladder => {
    const l = new Ladder(['warn', 'break'], 10);
    l.climb(1, A, 0, 2);
    l.climbBlocked(1, A, 0, 3);
    return l;
  };

  it('should warn a different loop begun at the blocked call index or later at its first sighting', () => {
    expect(blocked().peek(B, 3)).toBe('warn');
    expect(blocked().peek(B, 5)).toBe('warn');
  });

  it('should break the blocked loop, a loop begun before the block, and an unkeyed verdict', () => {
    expect(blocked().peek(A, 0)).toBe('break');
    expect(blocked().peek(B, 2)).toBe('break');
    expect(blocked().peek(0, 5)).toBe('break');
  });

  it('should name no recorded call as the latest verdict after a block', () => {
    expect(blocked().lastVerdictAt()).toBeUndefined();
    expect(BLOCK_OFFSET).toBeGreaterThan(0);
    expect(BLOCK_OFFSET).toBeLessThan(1);
  });

  it('should resume the blocked loop after a cooldown when it began before the block, not a loop begun after it', () => {
    const l = blocked();
    for (let i = 0; i < 10; i++) l.quietCall();
    expect(l.peek(A, 0)).toBe('break');
    expect(l.peek(A, 14)).toBe('warn');
  });
});
