/**
 * What a scan checks calls with: the worker pool, or a LoopEngine in the calling thread (`--workers 0`).
 * Both give the same verdicts; the scan only needs batches in, verdicts out, and sessions ended.
 */
import { MAX_SESSIONS_LIMIT } from '../../engine/engine-options.js';
import { LoopEngine, type SessionEvent } from '../../engine/loop-engine.js';
import type { LoopDetectorOptions } from '../../options/options.js';
import { resolveOptions } from '../../options/resolve-options.js';
import { sessionCapacity, sessionSizeText } from '../../wasm/session-capacity.js';
import { resolvePoolOptions } from '../../pool/pool-options.js';
import type { Verdict } from '../../types.js';
import type { RoutedLine } from '../../wire/routed-line.js';
import type { RouteFilter } from '../../formats/routed-lines.js';
import { shardOf } from '../../pool/shard-of.js';

/** Checks batches of calls of many sessions, in submission order per session. */
export interface SessionChecker {
  /** Verdicts (or null, or the call's Error) in the order of `events`. */
  checkBatch(events: readonly SessionEvent[]): Promise<(Verdict | null | Error)[]>;
  /**
   * checkBatch for calls given as events or as lines routed by their session (read in the checker's
   * threads), writing each line's facts into `facts` (LoopPool.checkRouted); only a checker over worker
   * threads has it, and a scan then hands its events-format lines over unread.
   */
  checkRouted?(calls: readonly (SessionEvent | RoutedLine)[], facts: Float64Array): Promise<(Verdict | null | Error)[]>;
  /**
   * With checkRouted: the sessions whose lines a worker thread reads, so the scan hands them over unread;
   * the calling thread's own shard's lines are parsed where they are read (V8's JSON.parse and objects cost
   * less than reading a record from its bytes, and that shard is checked in the calling thread either way).
   */
  routesLineOf?: RouteFilter;
  /** Ends a session after every call submitted before. */
  end(session: string): Promise<void>;
  /**
   * Gives a live session a fresh start (a person's new prompt: LoopEngine.freshStart) after every call
   * submitted before and before those submitted after; nothing for a session that is not live.
   */
  freshStart(session: string): Promise<void>;
  /** Drains and stops. */
  close(): Promise<void>;
}

/** Most live sessions a scan may keep (`--max-sessions`): the checker holds one more while it ends one. */
export const MAX_LIVE_SESSIONS = MAX_SESSIONS_LIMIT - 1;

/** Most threads a checker may use (the calling thread and up to 256 workers). */
export const MAX_THREADS = 257;

/**
 * The live sessions a scan keeps: `requested` (`--max-sessions`) when every checker thread's WebAssembly
 * memory can hold them all (plus the one it ends), else as many as it can; `lowered` hears why when the
 * flag was given.
 */
export function liveSessions(options: LoopDetectorOptions, requested: number, given: boolean, lowered: (why: string) => void): number {
  const resolved = resolveOptions(options);
  const most = Math.max(1, sessionCapacity(resolved) - 1);
  if (requested <= most) return requested;
  if (given) lowered(`--max-sessions ${requested} lowered to ${most}: ${sessionSizeText(resolved)}, and each thread must be able to hold every live session`);
  return most;
}

/** Fewest cores on which a scan's default uses worker threads. */
export const MIN_CORES_FOR_WORKERS = 4;

/**
 * The threads a scan (or the demo) checks calls with by default: the machine's cores, or only the calling
 * thread on a machine of fewer than MIN_CORES_FOR_WORKERS. The calling thread also reads and decompresses
 * the input, parses its own shard's lines and hands the workers' lines over unread; on two cores a second
 * thread costs more CPU than it takes off the first (the traces x10: 10.7 s of CPU with one thread, 16.2 s
 * with two, docs/speed.md "perf40"; measured on a 2-core VM before:
 * `loopwatch scan` of the 28,505 trace calls 1.21 s with one thread, 1.28 s with two; of 228,040 calls,
 * 7.9-8.5 s against 9.2-9.7 s; after the reading was made cheaper, 0.90 s against 1.11 s, the two
 * threads burning 1.86 CPU seconds against 1.28: see docs/speed.md, "Scan end to end").
 */
export function defaultCheckerThreads(cores: number): number {
  return cores >= MIN_CORES_FOR_WORKERS ? cores : 1;
}

/**
 * The threads a checker of `maxLive` live sessions can use when `requested` are asked for: each thread's
 * share must be able to hold every live session (they are not spread evenly), and all of them together
 * at most the engine's limit of sessions, so past `MAX_SESSIONS_LIMIT / (maxLive + 1)` threads it is fewer.
 */
export function checkerThreads(requested: number, maxLive: number): number {
  if (requested <= 1) return requested;
  return Math.max(1, Math.min(requested, MAX_THREADS, Math.floor(MAX_SESSIONS_LIMIT / (maxLive + 1))));
}

/**
 * A checker over `threads` threads (at most {@link checkerThreads}): the calling thread checks one shard of the sessions itself and
 * `threads - 1` worker threads the others (on 2 cores, a calling thread that only packed calls for 2
 * workers left them slower than itself alone); with 0 or 1, the calling thread checks every call. The scan
 * ends sessions itself (it keeps at most `maxLive`, the same whatever the thread count), so the checker is
 * sized never to evict or expire one on its own: that would make verdicts depend on how sessions fall
 * onto shards. Its sessions only check after the fact (LoopEngine's `checksOnly`): a scan never snapshots,
 * restores nor proposes.
 */
export function sessionChecker(options: LoopDetectorOptions, threads: number, maxLive: number): SessionChecker {
  if (threads <= 1) {
    // a scan only checks after the fact and never snapshots: a check that passed is read of the call checked alone
    const engine = new LoopEngine({ ...options, maxSessions: maxLive + 1, idleTtlMs: 0, checksOnly: true });
    return {
      checkBatch: (events) => Promise.resolve(engine.checkBatch(events)),
      end: (session) => {
        engine.end(session);
        return Promise.resolve();
      },
      freshStart: (session) => {
        engine.freshStart(session);
        return Promise.resolve();
      },
      close: () => {
        engine.close();
        return Promise.resolve();
      },
    };
  }
  const poolOptions = { ...options, workers: threads - 1, inlineShard: true, maxSessions: (maxLive + 1) * threads, idleTtlMs: 0, checksOnly: true };
  resolvePoolOptions(poolOptions); // invalid options throw here, as the pool's constructor would
  // the pool's modules (piscina, the wire format: ~15 ms of loading) load only for a scan with workers
  const pool = import('../../pool/loop-pool.js').then(({ LoopPool }) => new LoopPool(poolOptions));
  return {
    checkBatch: async (events) => (await pool).checkBatch(events),
    checkRouted: async (calls, facts) => (await pool).checkRouted(calls, facts),
    // the pool's shards are its workers' and then the calling thread's (LoopPool: inlineShard)
    routesLineOf: (session) => shardOf(session, threads) !== threads - 1,
    end: async (session) => (await pool).end(session),
    freshStart: async (session) => {
      await (await pool).freshStart(session);
    },
    close: async () => (await pool).close(),
  };
}
