/**
 * What a session of `loopwatch serve` costs whatever its calls hold: the fixed bytes `--session-memory`
 * counts for each session beside its calls' content (held-memory.ts), so that the budget bounds the
 * sessions' memory and not only their calls'.
 *
 * ```
 *   per session = WebAssembly bytes (its slot's size class + state repeat's ring at its full window:
 *                 sessionBytes, the largest over the server's engines)
 *               + SESSION_HEAP_BYTES (its objects in the engine, its word blocks, its entries and id in
 *                 the engine's table and the memory's map, and the garbage a stream of new sessions leaves)
 * ```
 *
 * Measured with `node dist/bench/serve-sessions-rss.js 200000` (default options: 5,952 B of
 * WebAssembly memory a session): 100,000 live sessions of one call took 714 MB of resident memory over a
 * fresh server's 59 MB (7.1 KB each), and 914 MB (9.1 KB each) once 200,000 had been opened and half
 * evicted; `node --expose-gc dist/bench/session-objects.js core 1000 1 fixture` finds 528 B of the
 * engine's objects and 328 B of word blocks a session. 5,952 + 3,072 = 9,024 B counts the churned figure.
 */
import { OptionRangeError } from '../errors.js';
import { MAX_PENDING } from '../live/live-state.js';
import type { ResolvedOptions } from '../options/options.js';
import { historyCapacity } from '../session/build-detectors.js';
import { sessionBytes } from '../wasm/session-capacity.js';
import { HeldMemory } from './held-memory.js';

/** Bytes of V8 heap (and the allocator's slack) a session is counted for beside its WebAssembly memory. */
export const SESSION_HEAP_BYTES = 3_072;

/** Bytes every session of engines with these detection options is counted for beside its calls. */
export function sessionCost(detection: readonly ResolvedOptions[]): number {
  return Math.max(0, ...detection.map((o) => sessionBytes(o))) + SESSION_HEAP_BYTES;
}

/**
 * Why a `sessionMemory` budget of `budget` bytes cannot serve sessions that cost `perSession` bytes each
 * (sessionCost) whatever their calls hold: below one session's fixed cost every session would be evicted
 * after each request, its verdicts starting over every time. Null when the budget holds one.
 */
export function sessionMemoryTooSmall(budget: number, perSession: number): string | null {
  if (budget >= perSession) return null;
  const n = (b: number): string => b.toLocaleString('en-US');
  return `the session memory budget (sessionMemory, serve's --session-memory) is ${n(budget)} bytes, less than what one session costs before its calls under these detection options (${n(perSession)} bytes: its WebAssembly state, as long as the windows, and its objects): every session would be dropped after each request, so nothing would be detected. Give at least ${n(perSession)} bytes (many times that to keep several sessions), or shorter windows`;
}

/**
 * What the sessions of engines with these detection options may hold together, `budget` bytes: each its
 * fixed cost (sessionCost) and its calls' content within the detectors' history (and the current call)
 * and its waiting proposals; past it the least recently used go through `evict`. Throws an
 * OptionRangeError (sessionMemoryTooSmall) when the budget cannot hold one session. What `loopwatch serve`
 * and a NATS worker each count their sessions with.
 */
export function sessionMemory(budget: number, detection: readonly ResolvedOptions[], evict: (sessionId: string) => void): HeldMemory {
  const perSession = sessionCost(detection);
  const tooSmall = sessionMemoryTooSmall(budget, perSession);
  if (tooSmall !== null) throw new OptionRangeError('sessionMemory', tooSmall);
  const history = Math.max(...detection.map((o) => historyCapacity(o.detectors))) + 1;
  return new HeldMemory(budget, history, MAX_PENDING, evict, perSession);
}
