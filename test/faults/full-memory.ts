/**
 * Helpers of the fault-injection suite's full-memory files: fill the thread's WebAssembly memory (stopped by
 * the file at a few MiB with limitMemoryForTesting) with one-call sessions, batch by batch, until the engine
 * has to evict a session to start another; then check calls in that full memory against the reference.
 */
import { expect } from 'vitest';
import { LoopDetector, LoopEngine } from '../../src/index.js';
import type { SessionEvent, ToolEvent } from '../../src/index.js';

/** A call whose description is short: a sketch of a few hashes (a small block). */
export const shortCall = (i: number): ToolEvent => ({ tool: 'read', args: { p: i % 7 }, description: `at ${i % 7}`, result: `r${i % 7}` });

/** A call whose description has many distinct words: a sketch of k hashes (the largest block). */
export const longCall = (i: number): ToolEvent => ({
  tool: 'search',
  args: { q: `query ${i}` },
  description: Array.from({ length: 40 }, (_, w) => `word${w}x${i % 5}`).join(' '),
  result: `found ${i % 5}`,
});

/** Verdicts (or errors) as one comparable string. */
export const verdicts = (vs: unknown): string => JSON.stringify(vs);

/**
 * Checks batches of 50 new sessions of one call (`call`) each, ids `f0`, `f1`, ..., until the engine has
 * evicted a session (the memory is full); fails the test when a call fails or the memory never fills
 * within 40,000 sessions.
 */
export function fillWithOneCallSessions(e: LoopEngine, call: ToolEvent): void {
  for (let from = 0; e.stats().evicted === 0; from += 50) {
    expect(from, 'the memory never filled').toBeLessThan(40_000);
    const out = e.checkBatch(Array.from({ length: 50 }, (_, i): SessionEvent => ({ session: `f${from + i}`, ...call })));
    expect(out.filter((v) => v instanceof Error)).toEqual([]);
  }
}

/**
 * A new engine whose memory `fillWithOneCallSessions(e, fill)` filled, and `body` run on some of its sessions
 * with a reference detector each: the `sessions` newest ones (each reference given the same `fill` call), or
 * new sessions of the ids given (fresh references). Then checks that the engine evicted older sessions to make
 * room and still has every one of them, and closes it.
 */
export function inFullMemory(
  fill: ToolEvent,
  sessions: number | readonly string[],
  body: (e: LoopEngine, ids: readonly string[], refs: ReadonlyMap<string, LoopDetector>) => void,
): void {
  const e = new LoopEngine();
  try {
    fillWithOneCallSessions(e, fill);
    const ids = typeof sessions === 'number' ? e.sessionIds().slice(-sessions) : sessions;
    const refs = new Map(ids.map((id) => [id, new LoopDetector({ engine: 'reference', sessionId: id })]));
    if (typeof sessions === 'number') for (const r of refs.values()) r.check(fill);
    const before = e.stats().evicted;
    body(e, ids, refs);
    // the room came from evicting older sessions (none of these)
    expect(e.stats().evicted).toBeGreaterThan(before);
    for (const id of ids) expect(e.has(id), id).toBe(true);
  } finally {
    e.close();
  }
}

/**
 * Checks rounds 1..3 of `events(round)` as one batch each: no call fails, and every verdict is that of the
 * session's reference detector (`refs`) given the same calls one at a time.
 */
export function roundsMatchReference(e: LoopEngine, refs: ReadonlyMap<string, LoopDetector>, events: (round: number) => SessionEvent[]): void {
  for (let round = 1; round <= 3; round++) {
    const batch = events(round);
    const out = e.checkBatch(batch);
    expect(out.filter((v) => v instanceof Error).map((v) => (v as Error).message).slice(0, 1), `round ${round}`).toEqual([]);
    expect(verdicts(out), `round ${round}`).toBe(verdicts(batch.map(({ session, ...ev }) => refs.get(session)?.check(ev))));
  }
}
