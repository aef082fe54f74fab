/**
 * Similar args' SummaryRing keeps a summary over PACK_OVER (768 B) packed when that is smaller (branch mem39): its
 * block takes fewer bytes (a test that fails without packing: the ring's own blocks took every summary as
 * put), every summary reads back as put (two at once, from the two lanes a comparison reads), snapshots
 * hold the summaries as put (the bytes integ's build wrote), and similar args finds the same similar calls.
 */
import { describe, expect, it } from 'vitest';
import { ByteReader } from '../src/snapshot/byte-reader.js';
import { ByteWriter } from '../src/snapshot/byte-writer.js';
import { blockBytes } from '../src/state/summary-blocks.js';
import type { SummaryBlocks } from '../src/state/summary-blocks.js';
import { SummaryRing } from '../src/state/summary-ring.js';
import { summarizeArgs } from '../src/text/args-summary.js';
import { PACK_OVER } from '../src/state/summary-lz.js';

/** Args' summary, copied (summarizeArgs gives a view of the thread's buffer). */
const summaryOf = (args: unknown): Uint8Array => summarizeArgs(args).slice();
import { LoopDetector } from '../src/index.js';

/** An Edit call's args: old and new text of `lines` lines each, line `k` naming `k + seed` (summaries over PACK_OVER with 40). */
const writeArgs = (seed: number, lines = 40): { file_path: string; content: string; replacement: string } => ({
  file_path: `/repo/src/part${seed % 3}.ts`,
  content: Array.from({ length: lines }, (_, k) => `const value${k + seed} = compute(${k}, 'field ${k + seed}');\n`).join(''),
  replacement: Array.from({ length: lines }, (_, k) => `let value${k + seed} = compute(${k + 1}, 'field ${k + seed}');\n`).join(''),
});

/** Call `k`'s summary as the ring gives it back. */
function readBack(ring: SummaryRing, k: number, lane: 0 | 1 = 0): Uint8Array {
  const at = ring.at(k);
  return ring.bytesOf(k, lane).slice(at, at + ring.lengthOf(k));
}

describe('summary ring, packed summaries', () => {
  it('should keep long summaries in fewer bytes than as put, and read them back as put', () => {
    const ring = new SummaryRing(11);
    const summaries = Array.from({ length: 11 }, (_, k) => summaryOf(writeArgs(k)));
    for (const s of summaries) expect(s.length).toBeGreaterThan(PACK_OVER);
    summaries.forEach((s, k) => ring.put(k, s));
    const own = (ring as unknown as { blocks: SummaryBlocks }).blocks;
    const asPut = summaries.reduce((n, s) => n + blockBytes(s.length), 0);
    expect(ring.heldBytes()).toBe(summaries.reduce((n, s) => n + s.length, 0));
    expect(ring.usedBytes()).toBeLessThan(ring.heldBytes() / 2);
    // the ring's own blocks: a block a summary at its length took asPut bytes at least before packing
    expect(own.bytes).toBeLessThan(asPut);
    summaries.forEach((s, k) => expect(readBack(ring, k)).toEqual(s));
  });

  it('should give two packed summaries at once, one a lane', () => {
    const ring = new SummaryRing(11, true);
    const a = summaryOf(writeArgs(1));
    const b = summaryOf(writeArgs(2));
    ring.put(0, a);
    ring.put(1, b);
    const first = ring.bytesOf(0, 0);
    const second = ring.bytesOf(1, 1);
    expect(first.slice(ring.at(0), ring.at(0) + a.length)).toEqual(a);
    expect(second.slice(ring.at(1), ring.at(1) + b.length)).toEqual(b);
    ring.dropTable();
  });

  it('should save the summaries as put, and load them back', () => {
    const ring = new SummaryRing(11);
    const summaries = [summaryOf(writeArgs(5)), summaryOf({ command: 'ls' }), summaryOf(writeArgs(6, 9))];
    summaries.forEach((s, k) => ring.put(k, s));
    const w = new ByteWriter();
    ring.save(w, 0, 3);
    // what a ring keeping every summary as put wrote: the count, then each call's index and bytes
    const expected = new ByteWriter();
    expected.u32(3);
    summaries.forEach((s, k) => {
      expected.f64(k);
      expected.bytes(s);
    });
    const saved = w.finish();
    expect(saved).toEqual(expected.finish());
    const again = new SummaryRing(11);
    again.load(new ByteReader(saved));
    summaries.forEach((s, k) => expect(readBack(again, k)).toEqual(s));
    expect(again.usedBytes()).toBe(ring.usedBytes());
  });

  it('should find the same similar calls among calls with long args', () => {
    const d = new LoopDetector({ detectors: { exactRepeat: false, frequency: false, cycle: false, semantic: false, deadEnd: false, stateRepeat: false, chanting: false } });
    const kinds: string[] = [];
    for (let k = 0; k < 6; k++) {
      const args = writeArgs(0);
      args.content = args.content.replace('compute(3,', `compute(${30 + k},`);
      const v = d.check({ tool: 'Write', args, error: 'permission denied' });
      if (v !== null) kinds.push(v.kind);
    }
    expect(kinds).toContain('similar_args');
  });
});
