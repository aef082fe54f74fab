/**
 * Fault injection, WebAssembly memory: `LoopEngine.restore` when the thread's memory is full. A snapshot
 * whose state repeat ring needs a block the memory no longer has evicts the engine's least recently used
 * session (reported by onEvict / onEvictError as any eviction), as a new session's slot does, and the
 * session goes on exactly from its snapshot; with no other session of the engine to evict it fails, the
 * engine unharmed.
 *
 * This file's thread stops its memory at 10 MiB (instead of 4 GiB; 20 MiB until sessions kept their semantic sketches in blocks of their length and took ~1 KB after one call), so a few thousand sessions fill it.
 */
import { describe, expect, it } from 'vitest';
import { CapacityError, LoopEngine, SnapshotError } from '../../src/index.js';
import type { SessionEvent } from '../../src/index.js';
import { limitMemoryForTesting } from '../../src/wasm/wasm-module.js';
import { json } from '../helpers/verdicts.js';

limitMemoryForTesting(160);

/** State repeat keeps 10,000 calls: its ring of keys grows as distinct states come. */
const options = { detectors: { stateRepeat: { window: 10_000 } } } as const;

const call = (session: string, i: number): SessionEvent => ({ session, tool: 'read', args: { p: i }, result: `r${i}` });

/**
 * A session of 3,000 distinct states (a ring of 4,096 keys) and its snapshot, and the calls that follow it:
 * made once, before any test fills the memory (freed memory stays cut in slots, too small for its ring).
 */
const big = ((): { snap: Uint8Array; next: SessionEvent[]; expected: string[] } => {
  const e = new LoopEngine(options);
  for (let i = 0; i < 3000; i++) e.checkBatch([call('big', i)]);
  const snap = e.snapshot('big') as Uint8Array;
  const next = Array.from({ length: 20 }, (_, i) => call('big', i % 4));
  const expected = e.checkBatch(next).map(json);
  e.close();
  return { snap, next, expected };
})();
const bigSession = (): typeof big => big;

/** New sessions in `e` until the memory is full (it evicted one to make room); throws past 100,000. */
function fill(e: LoopEngine, prefix: string): void {
  for (let n = 0; e.stats().evicted === 0; n++) {
    if (n === 100_000) throw new Error('the memory did not fill');
    e.checkBatch([call(`${prefix}${n}`, n)]);
  }
}

describe('LoopEngine.restore when the WebAssembly memory is full', () => {
  // one engine fills the memory for the whole file: freed memory stays cut in slots too small for a big ring
  it('should evict the least recently used sessions for a restored session`s state, report what could not be persisted, and go on exactly from the snapshot', () => {
    const { snap, next, expected } = bigSession();
    expect(snap.length).toBeGreaterThan(0);
    const evicted: string[] = [];
    const errors: string[] = [];
    const e = new LoopEngine({
      ...options,
      onEvict: (s) => {
        evicted.push(s.sessionId);
        throw new Error('store down');
      },
      onEvictError: (err, info) => errors.push(`${info.sessionId} ${info.reason}: ${err.message}`),
    });
    fill(e, 's');
    evicted.length = 0;
    errors.length = 0;
    const oldest = e.sessionIds()[0];
    try {
      e.restore('new1', snap); // a new session
      e.restore('s100', snap); // a live one, its ring too small for the snapshot's
    } catch (err) {
      e.close(); // the next test needs the memory back
      throw err;
    }
    expect(evicted.length).toBeGreaterThan(0);
    expect(evicted[0]).toBe(oldest);
    expect(errors[0]).toBe(`${oldest} evicted: store down`);
    expect(errors).toHaveLength(evicted.length);
    expect(e.sessionStats('s100')?.checks).toBe(3000);
    expect(e.checkBatch(next.map((c) => ({ ...c, session: 's100' }))).map(json)).toEqual(expected.map((v) => v.replaceAll('"big"', '"s100"')));
    e.close();
  });

  it('should fail a restore with no other session of the engine to evict (the memory is another engine`s), the engine unharmed', () => {
    const { snap } = bigSession();
    const holder = new LoopEngine(options);
    fill(holder, 'h');
    const e = new LoopEngine(options);
    let thrown: unknown;
    try {
      e.restore('only', snap);
    } catch (err) {
      thrown = err;
    }
    // no room for its slot (CapacityError) or for its ring (SnapshotError caused by one)
    expect(thrown instanceof CapacityError || (thrown instanceof SnapshotError && thrown.cause instanceof CapacityError)).toBe(true);
    expect(e.sessionIds()).toEqual([]);
    expect(holder.stats().live).toBeGreaterThan(0);
    e.close();
    holder.close();
  });
});
