/**
 * Creates (or checks) what the workers share on the NATS server: the calls stream with its partitioning
 * subject transform, the verdicts stream and the two key-value buckets (each partition's durable consumer
 * is made by its owner: takeOverConsumer). Every worker runs it at start; it is idempotent, and refuses to run against a calls stream partitioned
 * another way (partitions cannot change under live sessions).
 */
import { AckPolicy, DeliverPolicy, DiscardPolicy, type JetStreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { type KV, Kvm } from '@nats-io/kv';
import { CALLS_PREFIX, CALLS_STREAM, INPUT_PREFIX, OWNERS_BUCKET, SESSIONS_BUCKET, VERDICTS_PREFIX, VERDICTS_STREAM, partitionConsumer, partitionFilter } from './subjects.js';

/** How the shared NATS objects are made. */
export interface NatsLayout {
  /** Partitions of the calls stream. */
  readonly partitions: number;
  /** How long calls and verdicts are kept, in ms. */
  readonly retentionMs: number;
  /**
   * What each of the two streams may store, in bytes. The calls stream refuses a call past it (discard
   * new: the caller's publish fails with a StoreFullError, nothing is dropped unchecked), and the workers
   * purge the calls they have checked, so it fills only with calls not yet checked. The verdicts stream, a
   * record (answers go to the caller's reply subject), drops its oldest past it.
   */
  readonly maxBytes: number;
  /**
   * What the sessions bucket (each session's stored state) may hold, in bytes. Past it the server refuses
   * a write (discard new); a worker stores no new session past 7/8 of it, keeping the rest for the rewrites
   * of the sessions the bucket holds (bucket-room.ts). A session whose state is not stored is answered as
   * before and reported once (session-book.ts `notKept`).
   */
  readonly sessionsMaxBytes: number;
  /** Window in which a repeated Nats-Msg-Id (call id) is dropped, in ms. */
  readonly duplicateWindowMs: number;
  /** Messages a partition's consumer may have delivered and not yet acknowledged. */
  readonly maxAckPending: number;
  /** How long a delivered call may stay unacknowledged before it is delivered again, in ms. */
  readonly ackWaitMs: number;
}

const ns = (ms: number): number => ms * 1_000_000;

/** The partition count of an existing calls stream, or null when there is none. */
export async function existingPartitions(jsm: JetStreamManager): Promise<number | null> {
  try {
    const info = await jsm.streams.info(CALLS_STREAM);
    const dest = info.config.subject_transform?.dest ?? '';
    const m = /\{\{\s*partition\(\s*(\d+)\s*,/.exec(dest);
    return m === null ? NaN : Number(m[1]);
  } catch (e) {
    if ((e as { code?: unknown }).code === 404 || /stream not found/i.test((e as Error).message)) return null;
    throw e;
  }
}

/** Makes the streams and buckets (those that exist are kept). Returns the two buckets. */
export async function ensureLayout(nc: NatsConnection, jsm: JetStreamManager, layout: NatsLayout): Promise<{ sessions: KV; owners: KV }> {
  const have = await existingPartitions(jsm);
  if (have !== null && have !== layout.partitions) {
    throw new Error(`the ${CALLS_STREAM} stream on this server has ${Number.isNaN(have) ? 'no partition transform' : `${have} partitions`}, not ${layout.partitions}: use --partitions ${have}, or delete the stream when no session is live`);
  }
  const calls = { max_bytes: layout.maxBytes, discard: DiscardPolicy.New };
  const verdicts = { max_bytes: layout.maxBytes, discard: DiscardPolicy.Old };
  if (have === null) {
    await jsm.streams.add({
      ...calls,
      name: CALLS_STREAM,
      subjects: [`${INPUT_PREFIX}.*`],
      subject_transform: { src: `${INPUT_PREFIX}.*`, dest: `${CALLS_PREFIX}.{{partition(${layout.partitions},1)}}.{{wildcard(1)}}` },
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      max_age: ns(layout.retentionMs),
      duplicate_window: ns(layout.duplicateWindowMs),
    });
  } else await boundStream(jsm, CALLS_STREAM, calls);
  let verdictsHeld = true;
  try {
    await jsm.streams.info(VERDICTS_STREAM);
  } catch {
    verdictsHeld = false;
  }
  if (verdictsHeld) await boundStream(jsm, VERDICTS_STREAM, verdicts);
  else {
    await jsm.streams.add({
      ...verdicts,
      name: VERDICTS_STREAM,
      subjects: [`${VERDICTS_PREFIX}.*`],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      max_age: ns(layout.retentionMs),
      duplicate_window: ns(layout.duplicateWindowMs),
    });
  }
  const kvm = new Kvm(nc);
  // a session untouched for the retention time is forgotten, as its calls are
  const sessions = await kvm.create(SESSIONS_BUCKET, { history: 1, ttl: layout.retentionMs, max_bytes: layout.sessionsMaxBytes });
  // hostile32: a bucket made before had no bound (a flood of distinct sessions grew it for the day of its TTL)
  await boundStream(jsm, `KV_${SESSIONS_BUCKET}`, { max_bytes: layout.sessionsMaxBytes, discard: DiscardPolicy.New });
  const owners = await kvm.create(OWNERS_BUCKET, { history: 1 });
  return { sessions, owners };
}

/**
 * Gives an existing stream the store bound this worker was started with (hostile31: streams made before
 * had none, and a flood grew the server's store for the day of max_age: 538 MB after 60,000 calls). The
 * last worker started sets it; the others keep what they find.
 */
async function boundStream(jsm: JetStreamManager, name: string, bound: { max_bytes: number; discard: DiscardPolicy }): Promise<void> {
  const { config } = await jsm.streams.info(name);
  if (config.max_bytes === bound.max_bytes && config.discard === bound.discard) return;
  await jsm.streams.update(name, { ...config, ...bound });
}

/** Partition `p`'s durable consumer of ownership epoch `epoch`, delivering from stream sequence `from` (0: from the start). */
export function consumerConfig(p: number, epoch: number, layout: NatsLayout, from: number) {
  return {
    durable_name: partitionConsumer(p, epoch),
    filter_subject: partitionFilter(p),
    ack_policy: AckPolicy.Explicit,
    ack_wait: ns(layout.ackWaitMs),
    max_ack_pending: layout.maxAckPending,
    ...(from > 1 ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: from } : { deliver_policy: DeliverPolicy.All }),
  };
}

/**
 * Makes partition `p`'s consumer for a new owner: a durable consumer of its own (named by the lease
 * revision, the ownership epoch) that starts after the acknowledgement floor of the previous owner's, which
 * is then deleted. So the calls a previous owner had received but not acknowledged come first and in order,
 * and a previous owner that does not know yet that it lost the partition pulls from a consumer that is
 * gone: it can neither take calls from the new owner nor acknowledge them. Returns the consumer's name.
 */
export async function takeOverConsumer(jsm: JetStreamManager, p: number, epoch: number, layout: NatsLayout): Promise<string> {
  const prefix = `${partitionConsumer(p)}-`;
  const previous: { name: string; epoch: number; floor: number }[] = [];
  for await (const c of jsm.consumers.list(CALLS_STREAM)) {
    if (!c.name.startsWith(prefix)) continue;
    const e = Number(c.name.slice(prefix.length));
    if (Number.isInteger(e) && e !== epoch) previous.push({ name: c.name, epoch: e, floor: c.ack_floor.stream_seq });
  }
  previous.sort((a, b) => b.epoch - a.epoch);
  const floor = previous[0]?.floor ?? 0;
  const name = partitionConsumer(p, epoch);
  try {
    await jsm.consumers.add(CALLS_STREAM, consumerConfig(p, epoch, layout, floor + 1));
  } catch (e) {
    if (!/already (exists|in use)/i.test((e as Error).message)) throw e;
  }
  for (const old of previous) await jsm.consumers.delete(CALLS_STREAM, old.name).catch(() => undefined);
  return name;
}
