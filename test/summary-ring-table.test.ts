/**
 * Similar args' SummaryRing keeps a table slot a call: the call index held, and its block's place and its
 * summary's length packed in one double (branch mem38: they took a double each, 264 B a session of the
 * default window, 176 B now). Summaries of every length up to SUMMARY_MAX_BYTES, in blocks of the thread's
 * chunks, read back as they were put; a ring dropped (its session disposed) gives its table and its blocks
 * back as they are, uncopied (branch perf42), and the next ring takes them.
 */
import { describe, expect, it } from 'vitest';
import { SUMMARY_MAX_BYTES } from '../src/text/args-summary.js';
import { sharedSummaryBytes } from '../src/state/summary-blocks.js';
import { SummaryRing } from '../src/state/summary-ring.js';

const bytesOf = (n: number, seed: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (seed * 31 + i * 7) & 0xff);

function readBack(ring: SummaryRing, k: number, n: number): Uint8Array {
  const at = ring.at(k);
  return ring.bytesOf(k).slice(at, at + n);
}

describe('summary ring table', () => {
  it.each([false, true])('should take two doubles a slot (shared %s)', (shared) => {
    const ring = new SummaryRing(11, shared);
    const t = ring as unknown as { table: Float64Array; tb: number };
    if (!shared) expect(t.table.length).toBe(22);
    ring.put(0, bytesOf(5, 0));
    // the slot after call 0's holds no call: its index word is -1, two doubles on
    expect(t.table[t.tb + 2]).toBe(-1);
    if (!shared) return;
    // dropped (its session disposed): the block goes back as it is, the ring holds no table
    const { table, tb } = t;
    ring.dropTable();
    expect(t.table.length).toBe(0);
    const next = new SummaryRing(11, true) as unknown as { table: Float64Array; tb: number };
    expect(next.table).toBe(table);
    expect(next.tb).toBe(tb);
    expect(next.table[next.tb + 2]).toBe(-1);
    (next as unknown as SummaryRing).dropTable();
  });

  it('should read back summaries of every length class up to SUMMARY_MAX_BYTES, and give their blocks back when dropped', () => {
    const ring = new SummaryRing(11, true);
    const lengths = [0, 1, 15, 16, 17, 255, 256, 257, 1000, 1024, 1025, 4000, SUMMARY_MAX_BYTES];
    let k = 0;
    for (let round = 0; round < 3; round++) {
      for (const n of lengths) {
        ring.put(k, bytesOf(n, k));
        expect(readBack(ring, k, n)).toEqual(bytesOf(n, k));
        k++;
      }
    }
    const held = Array.from({ length: 11 }, (_, j) => k - 11 + j);
    for (const i of held) {
      const n = lengths[i % lengths.length] as number;
      expect(ring.has(i)).toBe(true);
      expect(readBack(ring, i, n)).toEqual(bytesOf(n, i));
    }
    expect(ring.heldBytes()).toBe(held.reduce((s, i) => s + (lengths[i % lengths.length] as number), 0));
    // dropped: every block it held goes back, so a ring that then holds the same summaries takes no new chunk
    ring.dropTable();
    const before = sharedSummaryBytes();
    const next = new SummaryRing(11, true);
    for (const i of held) next.put(i, bytesOf(lengths[i % lengths.length] as number, i));
    expect(sharedSummaryBytes()).toBe(before);
    next.dropTable();
  });
});
