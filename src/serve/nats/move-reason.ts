/**
 * Why a NATS worker took, gave up or lost a partition, as data (PartitionLeases decides, NatsWorker reports
 * it in its WorkerEvent), and the sentence `serve` prints for it. An operator running several workers sees
 * partitions move; the reason says which of the causes it was: a worker joined (the share fell), a worker
 * stopped answering (its lease went stale), a worker stopped (its partitions handed back), or this worker
 * was too slow to renew its own lease (another took the partition).
 *
 * Worker ids come from the owners bucket (any client allowed to write it can put one there), so the
 * sentences hold them only cut to ID_SHOWN characters; `serve` escapes and redacts the line as a whole.
 */
import { cutText } from '../../text/shown-text.js';
import { connectProblem } from '../../text/network-failure.js';

/** Why a partition was taken. */
export type AcquireReason =
  /** No worker held it: never claimed yet, or handed back by its owner `from` (which stopped or was over its share). */
  | { readonly why: 'free'; readonly from?: string }
  /** Its owner's lease was not renewed for `silentMs` (at least a lease): that worker stopped answering. */
  | { readonly why: 'stale'; readonly from: string; readonly silentMs: number };

/** Why a partition was given up (its sessions written first). */
export type ReleaseReason =
  /** Over this worker's share: `workers` live workers share the partitions, this one's share is `share`. */
  | { readonly why: 'share'; readonly workers: number; readonly share: number }
  /** This worker is stopping (SIGTERM or SIGINT). */
  | { readonly why: 'stop' }
  /** Taken, but its consumer could not be started (`problem`): handed back to be claimed again. */
  | { readonly why: 'failed'; readonly problem: string };

/** Why a partition was dropped without writing its sessions. */
export type LostReason =
  /** The lease's renewal was refused: another worker (`by`, when known) took it after this one did not renew it in time. */
  | { readonly why: 'taken'; readonly by?: string }
  /** A session's state could not be loaded or kept (`problem`): given up, to be taken again from its acknowledgement floor. */
  | { readonly why: 'broken'; readonly problem: string }
  /**
   * hostile40: a delivery of its consumer never reached this worker (delivery `got` came after
   * `after`: lost in flight, in a reconnect, or pulled by another client). Its call comes back after the
   * consumer's ack wait, behind newer calls of its session; given up, to be taken again from its
   * acknowledgement floor, so that the lost call is checked in stream order.
   */
  | { readonly why: 'gap'; readonly after: number; readonly got: number };

/** Which workers' heartbeats appeared or went since the last lease round. */
export interface WorkersChange {
  /** Workers whose heartbeat appeared. */
  readonly joined: readonly string[];
  /** Workers that removed their heartbeat (a clean stop). */
  readonly stopped: readonly string[];
  /** Workers whose heartbeat was not renewed for a lease, with how long (ms): dead, stalled or cut off. */
  readonly silent: readonly { readonly worker: string; readonly silentMs: number }[];
  /** Live workers now, this one included. */
  readonly live: number;
}

/** Characters of a worker id a sentence shows. */
export const ID_SHOWN = 80;

// cut where no secret is split (cutText), so that the redaction of the whole line still knows it
const id = (w: string): string => JSON.stringify(cutText(w, ID_SHOWN));
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The sentence for a taken partition: `free (no worker held it)`, `worker "b" stopped answering (...)`. */
export function acquireText(r: AcquireReason): string {
  if (r.why === 'free') return r.from === undefined ? 'free (no worker held it)' : `handed back by worker ${id(r.from)}`;
  return `worker ${id(r.from)} stopped answering (its lease not renewed for ${seconds(r.silentMs)})`;
}

/** The sentence for a partition given up. */
export function releaseText(r: ReleaseReason): string {
  if (r.why === 'stop') return 'this worker is stopping (sessions written, handed back)';
  if (r.why === 'failed') return `its consumer could not be started (${connectProblem(r.problem)}); handed back`;
  return `over this worker's share (${r.share} of the partitions among ${r.workers} live workers)`;
}

/** The sentence for a partition lost. */
export function lostText(r: LostReason): string {
  if (r.why === 'broken') return `a session's state could not be kept (${connectProblem(r.problem)}); taken again from its acknowledgement floor`;
  if (r.why === 'gap') return `a delivery of its consumer did not reach this worker (delivery ${r.got} came after ${r.after}: lost in flight, or pulled by another client); taken again from its acknowledgement floor, so that the lost call is checked in order`;
  return `${r.by === undefined ? 'another worker' : `worker ${id(r.by)}`} took it: this worker did not renew its lease in time (stalled, or cut off from the server); its sessions' unwritten calls are checked again by the new owner`;
}

/** The sentence for a change of the live workers, or null when nothing changed. */
export function workersText(c: WorkersChange): string | null {
  const parts = [
    ...c.joined.map((w) => `worker ${id(w)} joined`),
    ...c.stopped.map((w) => `worker ${id(w)} stopped`),
    ...c.silent.map((s) => `worker ${id(s.worker)} stopped answering (no heartbeat for ${seconds(s.silentMs)})`),
  ];
  return parts.length === 0 ? null : `${parts.join('; ')}: ${c.live} live ${c.live === 1 ? 'worker' : 'workers'}`;
}
