/**
 * A dead end's wall (src/live/dead-end-wall.ts) compares the tools of the calls before a proposal. With only
 * cycle and dead end on, the WebAssembly engine kept no ring of tools and threw "ring 1 is not kept for this
 * configuration" from propose(): the rings it reads are kept whenever dead end is on, and both engines give
 * the same answers.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';

const OFF = { exactRepeat: false, frequency: false, semantic: false, similarArgs: false, resultRepeat: false, stateRepeat: false, chanting: false } as const;

/**
 * Two-phase actions of one script after another failing on the same missing module, until a block (reads of
 * missing files, `cat x0`, `cat x1`, ..., are probes that found nothing since quiet11, not a dead end).
 */
function actions(engine: 'wasm' | 'reference'): string[] {
  const d = new LoopDetector({ engine, detectors: OFF });
  const out: string[] = [];
  try {
    for (let i = 0; i < 8; i++) {
      const call = { id: `c${i}`, tool: 'bash', args: { command: `python fix${i}.py` } };
      const p = d.propose(call);
      out.push(p.action);
      if (p.action === 'deny' || p.action === 'stop') break;
      const error = `Traceback (most recent call last):\n  File "fix${i}.py", line 3\nModuleNotFoundError: No module named 'numpy'`;
      out.push(`record:${d.record({ ...call, error }).action}`);
    }
  } finally {
    d.dispose();
  }
  return out;
}

describe('a dead end met again, with only cycle and dead end on', () => {
  it('should block the next attempt on both engines alike, never throw', () => {
    const reference = actions('reference');
    expect(reference.at(-1)).toBe('deny');
    expect(actions('wasm')).toEqual(reference);
  });
});
