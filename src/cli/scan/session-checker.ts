/**
 * What a scan checks calls with: the worker pool, or a LoopEngine in the calling thread (`--workers 0`).
 * Both give the same verdicts; the scan only needs batches in, verdicts out, and sessions ended.
 */
import { LoopEngine, type SessionEvent } from '../../engine/loop-engine.js';
import type { LoopDetectorOptions } from '../../options/options.js';
import { LoopPool } from '../../pool/loop-pool.js';
import type { Verdict } from '../../types.js';

/** Checks batches of calls of many sessions, in submission order per session. */
export interface SessionChecker {
  /** Verdicts (or null, or the call's Error) in the order of `events`. */
  checkBatch(events: readonly SessionEvent[]): Promise<(Verdict | null | Error)[]>;
  /** Ends a session after every call submitted before. */
  end(session: string): Promise<void>;
  /** Drains and stops. */
  close(): Promise<void>;
}

/**
 * A checker over `threads` threads: the calling thread checks one shard of the sessions itself and
 * `threads - 1` worker threads the others (on 2 cores, a calling thread that only packed calls for 2
 * workers left them slower than itself alone); with 0 or 1, the calling thread checks every call. The scan
 * ends sessions itself (it keeps at most `maxLive`, the same whatever the thread count), so the checker is
 * sized never to evict or expire one on its own: that would make verdicts depend on how sessions fall
 * onto shards.
 */
export function sessionChecker(options: LoopDetectorOptions, threads: number, maxLive: number): SessionChecker {
  if (threads <= 1) {
    const engine = new LoopEngine({ ...options, maxSessions: maxLive + 1, idleTtlMs: 0 });
    return {
      checkBatch: (events) => Promise.resolve(engine.checkBatch(events)),
      end: (session) => {
        engine.end(session);
        return Promise.resolve();
      },
      close: () => {
        engine.close();
        return Promise.resolve();
      },
    };
  }
  const pool = new LoopPool({ ...options, workers: threads - 1, inlineShard: true, maxSessions: (maxLive + 1) * threads, idleTtlMs: 0 });
  return {
    checkBatch: (events) => pool.checkBatch(events),
    end: (session) => pool.end(session),
    close: () => pool.close(),
  };
}
