/**
 * The module remembers the masked hash of recent results and errors by their text (assembly/mask-cache.ts)
 * instead of masking them again: the WebAssembly pipeline must still give the reference's verdicts, call
 * by call, when outcomes repeat, when texts share their first MASK_LIMIT bytes and differ after them, when
 * the same text is a result of one call and the error of another, when results come as values, and once
 * more texts than the cache holds have pushed earlier ones out.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { LoopDetectorOptions, ToolEvent } from '../src/index.js';
import { MASK_LIMIT } from '../src/text/mask-volatile.js';
import { MASK_CACHE_SLOTS } from '../src/wasm/generated/abi.js';
import { runs } from './helpers/streams.js';

const head = 'line 1 of /tmp/out.log: build ok\n'.repeat(Math.ceil(MASK_LIMIT / 33)).slice(0, MASK_LIMIT);

/** Outcome texts: short ones differing only by a number (one masked class), long ones differing past the limit or before it. */
const text = fc.constantFrom(
  'exit 1 at line 12',
  'exit 1 at line 14',
  'permission denied: /tmp/x',
  'No results found.',
  `${head}tail A`,
  `${head}tail B`,
  `${head.slice(0, MASK_LIMIT - 40)}changed before the limit${head.slice(MASK_LIMIT - 16)}`,
);

/** A result as text or as a value (whose text the module masks), or an error. */
const outcome = fc.tuple(text, fc.constantFrom('result', 'value', 'error')).map(([t, as]): Partial<ToolEvent> => (as === 'result' ? { result: t } : as === 'value' ? { result: { output: t } } : { error: t }));

const stream = fc.array(fc.tuple(fc.constantFrom('ls', 'make', 'grep x'), outcome), { minLength: 2, maxLength: 40 }).map((cs) => cs.map(([command, o]): ToolEvent => ({ tool: 'bash', args: { command }, ...o })));

// semantic is off: on main, with semantic on, a result given as a value whose text reads as a failure gets a
// semantic verdict from the module and none from the reference (a divergence of its own, reported apart)
const options = fc.constantFrom<LoopDetectorOptions>(
  { detectors: { semantic: false } },
  { detectors: { semantic: false, resultRepeat: { threshold: 2, window: 4 }, deadEnd: { threshold: 2, window: 4 } }, policy: { minConfidence: 0, progress: 'ignore' } },
  { detectors: { semantic: false, resultRepeat: { masked: true, threshold: 2, window: 6 }, deadEnd: { threshold: 2, window: 6, matchClass: true } }, policy: { minConfidence: 0, progress: 'ignore' } },
);

/** Checks a stream through both engines; returns how many verdicts the reference gave. */
function agree(events: readonly ToolEvent[], o: LoopDetectorOptions, wasm: LoopDetector): number {
  const ref = new LoopDetector({ ...o, engine: 'reference' });
  let flagged = 0;
  for (const e of events) {
    const v = ref.check(e);
    if (v !== null) flagged++;
    expect(JSON.stringify(wasm.check(e))).toBe(JSON.stringify(v));
  }
  return flagged;
}

describe('masked hashes remembered by text', () => {
  it('should give the reference verdicts when outcomes repeat, share their first bytes or change kind', () => {
    let flagged = 0;
    fc.assert(
      fc.property(stream, options, (events, o) => {
        const wasm = new LoopDetector({ ...o, engine: 'wasm' });
        try {
          flagged += agree(events, o, wasm);
        } finally {
          wasm.dispose();
        }
      }),
      { numRuns: runs(300) },
    );
    expect(flagged).toBeGreaterThan(100);
  });

  it('should give the reference verdicts after more distinct texts than the cache holds', () => {
    const o: LoopDetectorOptions = { detectors: { semantic: false, resultRepeat: { threshold: 2, window: 4 }, deadEnd: { threshold: 2, window: 4 } }, policy: { minConfidence: 0, progress: 'ignore' } };
    // texts of distinct masked classes (letters, not digits, tell them apart: masking keeps them)
    const word = (k: number): string => k.toString(16).replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)] as string);
    const call = (k: number): ToolEvent => ({ tool: 'bash', args: { command: `cat f${k % 7}` }, ...(k % 3 === 0 ? { error: `no such file ${word(k)}` } : { result: `contents of ${word(k)}` }) });
    const events: ToolEvent[] = [];
    for (let k = 0; k < 2 * MASK_CACHE_SLOTS; k++) events.push(call(k));
    // then the first texts again, each twice
    for (let k = 0; k < 64; k++) events.push(call(k), call(k));
    const wasm = new LoopDetector({ ...o, engine: 'wasm' });
    try {
      expect(agree(events, o, wasm)).toBeGreaterThan(0);
    } finally {
      wasm.dispose();
    }
  });
});
