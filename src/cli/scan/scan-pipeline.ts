/**
 * The scan's data path: trace items -> batches of calls -> the checker (pool or engine) -> verdicts, in
 * input order, tallied per session and handed to the output as they arrive; an ended session is folded into
 * the bounded aggregate once every verdict about it is in.
 *
 * ```
 *   reader items --call------> open batch ──full──> checker.checkBatch ──> in flight (at most DEPTH)
 *                --end-------> (after the batch holding its calls) checker.end        │ oldest first
 *                --input-end-> every session of that input ends                       v
 *                --issue-----> sink.issue                    tally + sink.verdict per call, in input order;
 *                                                            then the batch's ended sessions: aggregate
 *   a call after a person's prompt (TraceCall.prompted) of a live session: checker.freshStart before the
 *   batch that holds it (the open batch handed over first when it holds the session's calls before the prompt)
 * ```
 *
 * A session is its input file and its id (the same id in two files is two sessions). Live sessions are
 * capped here (`maxLive`, least recently used ended first, and counted), not by the checker, so verdicts
 * never depend on the worker count. A session ended that way waits (at most `maxLive` of them) in case it
 * comes back: it then goes on with its calls numbered on, though its detector state starts afresh. Memory:
 * the open and in-flight batches (a batch closes at `batchSize` calls or `MAX_BATCH_BYTES` of them, the
 * first reached; a small record per call once it is handed over), the live and waiting
 * sessions' tallies, the live sessions' detector state, and the bounded aggregate. Nothing grows with the
 * number of sessions seen.
 */
import { type SessionEvent, sessionEvent } from '../../engine/loop-engine.js';
import { SessionTable } from '../../engine/session-table.js';
import type { TraceCall, TraceIssue, TraceNote } from '../../formats/trace-record.js';
import type { ScanItem } from '../../formats/read-input.js';
import type { TraceLine } from '../../formats/routed-lines.js';
import { lineTool, rereadLine } from '../../formats/reread-line.js';
import { FACT_FAILED, FACT_NO_ARGS, RoutedLine } from '../../wire/routed-line.js';
import type { LoopAction, Verdict } from '../../types.js';
import { MAX_BATCH_BYTES, eventHeldBytes } from './event-size.js';
import { rebaseVerdict } from './rebase-verdict.js';
import { type ScanCounts, ScanAggregate, type SessionReport } from './scan-summary.js';
import type { SessionChecker } from './session-checker.js';
import { ACTION_RANK, SessionTally } from './session-tally.js';

/** Where a call was read, as the outputs name it (a call's args and results are not kept once handed over). */
export interface CallSite {
  readonly session: string;
  readonly file: string;
  /** 1-based line where the call's record starts. */
  readonly line: number;
  readonly tool: string;
  /** The step the input gave the call, if any. */
  readonly step: number | undefined;
}

/** Where a scan's findings go as they are made. */
export interface ScanSink {
  /** A verdict at or above the reporting threshold (numbered in the scan's terms), about the session's call `index`. */
  verdict(v: Verdict, call: CallSite, index: number, tally: SessionTally): void;
  /** A skipped line, element or input, or a call the checker refused. */
  issue(issue: TraceIssue): void;
  /** A part of an input passed over on purpose (no skip). */
  note?(note: TraceNote): void;
  /** A session has ended and every verdict about it is in: its report (already in the aggregate). */
  sessionDone?(report: SessionReport, tally: SessionTally): void;
  /** Called after each batch's verdicts are in (for progress); a promise holds the scan until it settles (output backpressure). */
  batchDone?(calls: number): void | Promise<void>;
}

/** How a scan runs. */
export interface ScanPlan {
  /** Lowest action reported. */
  readonly minAction: LoopAction;
  /** Most sessions checked at once; the least recently used is ended to make room. */
  readonly maxLive: number;
  /** Calls per batch handed to the checker (fewer when they hold `MAX_BATCH_BYTES`: see event-size.ts). */
  readonly batchSize: number;
  /** Bytes of calls a batch takes before it is handed over, as `eventHeldBytes` counts them. @default MAX_BATCH_BYTES */
  readonly batchBytes?: number;
  /** Worst sessions and tools the summary keeps. @default 10 */
  readonly top?: number;
  /** Which sessions may be listed among the worst. @default all */
  readonly listed?: (r: SessionReport) => boolean;
  /** Aborted: stop reading input at once (Ctrl-C), even mid-read; what was read is still checked and summarised. */
  readonly signal?: AbortSignal;
  /** How a reported verdict's tool is named in the outputs and the tallies (cut, redacted). @default as read */
  readonly toolName?: (tool: string) => string;
}

/** What a scan saw, beside what the sink was told. */
export interface ScanTotals extends ScanCounts {
  /** Every session, folded in. */
  readonly aggregate: ScanAggregate;
  /** Whether the scan stopped before the end of its input. */
  readonly stopped: boolean;
}

/** Batches a scan has with the checker at once. */
const DEPTH = 4;

interface Batch {
  events: (SessionEvent | RoutedLine)[];
  /**
   * Routed mode (the checker reads lines): each call's item (its tally work is done when its verdict is
   * in, in input order, since a line's step and outcome are known only then), and whether the session's
   * checker run began again at it.
   */
  readonly items: (TraceCall | TraceLine)[];
  readonly restart: boolean[];
  /** What the calls in `events` hold, as `eventHeldBytes` counts it. */
  bytes: number;
  /** Where each call was read (null in routed mode: known when its verdict is in). */
  readonly sites: (CallSite | null)[];
  readonly tallies: SessionTally[];
  readonly index: number[];
  /** The tally's `base` when the call was read. */
  readonly base: number[];
  /** Checker sessions to end once the batch's calls are submitted. */
  readonly ends: Set<string>;
  /** Checker sessions given a fresh start (a person's prompt) before the batch's calls are submitted. */
  readonly fresh: string[];
  /** Sessions to fold into the aggregate once the batch's verdicts are in. */
  readonly closing: SessionTally[];
}

const emptyBatch = (): Batch => ({ events: [], items: [], restart: [], bytes: 0, sites: [], tallies: [], index: [], base: [], ends: new Set(), fresh: [], closing: [] });

/** The checker's id of a session: its file and its id. */
export const sessionKey = (file: string, session: string): string => `${file}\u0000${session}`;

/** Scans `items` (in batches: `readInputBatches`) with `checker`, reporting to `sink`; the checker is left open. */
export async function runScan(items: AsyncIterable<readonly ScanItem[]>, checker: SessionChecker, plan: ScanPlan, sink: ScanSink): Promise<ScanTotals> {
  // routed mode: calls go to the checker as events or as their lines' bytes (read by the checker's threads),
  // under their bare session ids (a file's sessions all end before the next file's begin: see take)
  const routed = checker.checkRouted;
  const keyOf = (file: string, session: string): string => (routed === undefined ? sessionKey(file, session) : session);
  const t0 = performance.now();
  const aggregate = new ScanAggregate(plan.top, plan.listed);
  const live = new SessionTable<SessionTally>();
  const waiting = new SessionTable<SessionTally>();
  const inFlight: { batch: Batch; verdicts: Promise<(Verdict | null | Error)[]>; facts: Float64Array | null }[] = [];
  const minRank = ACTION_RANK[plan.minAction];
  const batchBytes = plan.batchBytes ?? MAX_BATCH_BYTES;
  let open = emptyBatch();
  /** The open batch's number (SessionTally.batch). */
  let batchNo = 0;
  let seq = 0;
  let events = 0;
  let withoutArgs = 0;
  let issues = 0;
  let evicted = 0;
  let stopped = false;

  /** Counts a call read for `tally` (its step, whether it failed, whether it had no args); its index in the session. */
  const countCall = (tally: SessionTally, step: number | undefined, failed: boolean, noArgs: boolean): number => {
    const index = tally.calls++;
    tally.noteStep(index, step);
    if (failed) tally.toolFailures++;
    if (noArgs) withoutArgs++;
    events++;
    return index;
  };

  /**
   * Routed mode: the tally work of call `k` of `batch` (done at take time otherwise), now that its facts
   * are in; its index and where it was read, or null for a line that held no call (its issues said).
   */
  const tallyCall = (batch: Batch, k: number, r: Verdict | null | Error | undefined, facts: Float64Array): { index: number; call: CallSite | (() => CallSite) } | null => {
    const tally = batch.tallies[k] as SessionTally;
    let item = batch.items[k] as TraceCall | TraceLine;
    if (batch.restart[k] === true) tally.base = tally.calls; // the checker numbers its calls from 0 again
    let step: number | undefined;
    let failed: boolean;
    let noArgs: boolean;
    if (item.kind === 'line' && r instanceof Error) {
      // the worker could not read it: read as the reader would have, for its issue (or its call)
      const again = rereadLine(item);
      const call = again.find((i): i is TraceCall => i.kind === 'call');
      if (call === undefined) {
        for (const i of again) {
          if (i.kind !== 'issue') continue;
          issues++;
          sink.issue(i);
        }
        return null;
      }
      item = call;
    }
    if (item.kind === 'line') {
      const st = facts[2 * k] as number;
      const flags = facts[2 * k + 1] as number;
      step = Number.isNaN(st) ? undefined : st;
      failed = (flags & FACT_FAILED) !== 0;
      noArgs = (flags & FACT_NO_ARGS) !== 0;
    } else {
      step = item.event.step;
      failed = item.errorInfo === 'known';
      noArgs = item.event.args === undefined;
    }
    const index = countCall(tally, step, failed, noArgs);
    const line = item;
    const call = line.kind === 'line' ? () => ({ session: line.session, file: line.file, line: line.line, tool: lineTool(line), step }) : { session: line.session, file: line.file, line: line.line, tool: line.event.tool, step };
    return { index, call };
  };

  const settleOldest = async (): Promise<void> => {
    const { batch, verdicts, facts } = inFlight.shift() as (typeof inFlight)[number];
    let out: (Verdict | null | Error)[];
    try {
      out = await verdicts;
    } catch (e) {
      out = batch.sites.map(() => (e instanceof Error ? e : new Error(String(e))));
    }
    for (let k = 0; k < batch.sites.length; k++) {
      const r = out[k];
      let where: CallSite | (() => CallSite) | null = batch.sites[k] as CallSite | null;
      let index = batch.index[k] as number;
      const tally = batch.tallies[k] as SessionTally;
      let base = batch.base[k] as number;
      if (facts !== null) {
        const done = tallyCall(batch, k, r, facts);
        if (done === null) continue;
        ({ index, call: where } = done);
        base = tally.base;
      }
      tally.noteSettled(index);
      if (r === null || r === undefined) continue;
      const callSite = (): CallSite => (typeof where === 'function' ? where() : (where as CallSite));
      if (r instanceof Error) {
        const call = callSite();
        tally.refused++;
        issues++;
        sink.issue({ kind: 'issue', code: 'bad-record', file: call.file, line: call.line, message: `call not checked: ${r.message}` });
        continue;
      }
      tally.noteAny(r.action);
      if (ACTION_RANK[r.action] < minRank) continue;
      const v = rebaseVerdict(r, base);
      const call = callSite();
      const site = plan.toolName === undefined ? call : { ...call, tool: plan.toolName(call.tool) };
      tally.addVerdict(v, index, site.tool);
      sink.verdict(v, site, index, tally);
    }
    for (const t of batch.closing) sink.sessionDone?.(aggregate.add(t), t);
    await sink.batchDone?.(batch.sites.length);
  };

  const submit = async (): Promise<void> => {
    if (open.events.length === 0 && open.ends.size === 0 && open.closing.length === 0 && open.fresh.length === 0) return;
    const batch = open;
    open = emptyBatch();
    batchNo++;
    // a fresh start that fails (a pool whose worker died) is as if the prompt had not been read
    for (const s of batch.fresh) checker.freshStart(s).catch(() => undefined);
    const facts = routed === undefined ? null : new Float64Array(2 * batch.events.length);
    const verdicts = batch.events.length === 0 ? Promise.resolve([]) : facts === null ? checker.checkBatch(batch.events as SessionEvent[]) : (checker.checkRouted as NonNullable<SessionChecker['checkRouted']>).call(checker, batch.events, facts);
    inFlight.push({ batch, verdicts, facts });
    batch.events = []; // the checker has them: args and results are not kept here
    // an end that fails (a pool whose worker died) changes no verdict already given
    for (const s of batch.ends) checker.end(s).catch(() => undefined);
    if (inFlight.length >= DEPTH) await settleOldest();
  };

  /** Folds `t` in once the open batch (holding its last calls) has settled. */
  const close = (t: SessionTally): void => {
    open.closing.push(t);
  };
  /** Ends the live session `key` in the checker; it is then folded in, or waits when ended early. */
  const endLive = (key: string, early: boolean): void => {
    const t = live.delete(key);
    if (t === undefined) return;
    open.ends.add(keyOf(t.file, t.session));
    if (!early) return close(t);
    t.endedEarly = true;
    evicted++;
    waiting.add(key, t, 0);
    if (waiting.size > plan.maxLive) {
      const oldest = waiting.oldest() as string;
      close(waiting.delete(oldest) as SessionTally);
    }
  };
  /** Ends every session of `file` (all of them when null), live or waiting, in the order they began. */
  const endAll = (file: string | null): void => {
    const of = (table: SessionTable<SessionTally>): [string, SessionTally][] =>
      [...table.entries()].filter(([, t]) => file === null || t.file === file);
    const ending = [...of(live).map((e) => [...e, true] as const), ...of(waiting).map((e) => [...e, false] as const)].sort((a, b) => a[1].seq - b[1].seq);
    for (const [key, t, isLive] of ending) {
      if (isLive) endLive(key, false);
      else {
        waiting.delete(key);
        close(t);
      }
    }
  };

  const it = items[Symbol.asyncIterator]();
  // the next batch, or 'stop' as soon as the signal is aborted (a promise per batch: racing one long-lived
  // promise would pile up a reaction per batch on it)
  let wake: ((r: 'stop') => void) | null = null;
  plan.signal?.addEventListener('abort', () => wake?.('stop'), { once: true });
  const next = (): Promise<IteratorResult<readonly ScanItem[]> | 'stop'> =>
    plan.signal === undefined
      ? it.next()
      : new Promise((resolve, reject) => {
          if (plan.signal?.aborted === true) return resolve('stop');
          wake = resolve;
          it.next().then(resolve, reject);
        });
  // the key of the session of the item before: a session's calls mostly come one after another, and the
  // same string each time is neither built nor hashed again (here, in the tables, nor in the checker's)
  let lastFile: string | null = null;
  let lastSession: string | null = null;
  let lastKey = '';
  const keyOfItem = (file: string, session: string): string => {
    if (session !== lastSession || file !== lastFile) {
      lastFile = file;
      lastSession = session;
      lastKey = sessionKey(file, session);
    }
    return lastKey;
  };
  /**
   * Takes in one item (without waiting: no promise per item). 'flush': not taken, the open batch must be
   * submitted first; 'full': taken, and the open batch is full.
   */
  const take = (item: ScanItem): 'taken' | 'flush' | 'full' => {
    if (item.kind === 'issue') {
      issues++;
      sink.issue(item);
      return 'taken';
    }
    if (item.kind === 'input-end') {
      endAll(item.file);
      return 'taken';
    }
    if (item.kind === 'note') {
      sink.note?.(item);
      return 'taken';
    }
    const key = keyOfItem(item.file, item.session);
    if (item.kind === 'end') {
      if (live.peek(key) !== undefined) endLive(key, false);
      else {
        const t = waiting.delete(key);
        if (t !== undefined) close(t);
      }
      return 'taken';
    }
    // a session ended in the open batch starts again only after that end reaches the checker
    if (open.ends.has(routed === undefined ? key : item.session)) return 'flush';
    let tally = live.use(key, 0);
    let restart = false;
    if (tally !== undefined && item.kind === 'call' && item.prompted === true) {
      // a person's prompt since the session's previous call: a fresh start after that call is checked
      if (tally.batch === batchNo) return 'flush';
      open.fresh.push(keyOf(item.file, item.session));
    }
    if (tally === undefined) {
      tally = waiting.delete(key);
      if (tally === undefined) tally = new SessionTally(item.session, item.file, seq++);
      else if (routed === undefined) tally.base = tally.calls; // the checker numbers its calls from 0 again
      else restart = true;
      if (live.size >= plan.maxLive) endLive(live.oldest() as string, true);
      live.add(key, tally, 0);
    }
    if (routed !== undefined) {
      // routed: the call's tally work waits for its facts (settleOldest)
      tally.batch = batchNo;
      open.events.push(item.kind === 'line' ? new RoutedLine(item.session, item.bytes) : sessionEvent(item.session, item.event));
      open.items.push(item);
      open.restart.push(restart);
      open.sites.push(null);
      open.tallies.push(tally);
      open.index.push(-1);
      open.base.push(0);
      open.bytes += item.kind === 'line' ? item.bytes.length : eventHeldBytes(item.event, batchBytes - open.bytes);
      return open.events.length >= plan.batchSize || open.bytes >= batchBytes ? 'full' : 'taken';
    }
    if (item.kind === 'line') throw new Error('loopwatch: a line handed over unread to a scan whose checker reads no lines');
    const index = countCall(tally, item.event.step, item.errorInfo === 'known', item.event.args === undefined);
    tally.batch = batchNo;
    open.events.push(sessionEvent(key, item.event));
    open.sites.push({ session: item.session, file: item.file, line: item.line, tool: item.event.tool, step: item.event.step });
    open.tallies.push(tally);
    open.index.push(index);
    open.base.push(tally.base);
    open.bytes += eventHeldBytes(item.event, batchBytes - open.bytes);
    return open.events.length >= plan.batchSize || open.bytes >= batchBytes ? 'full' : 'taken';
  };
  reading: for (;;) {
    const r = await next();
    wake = null;
    if (r === 'stop') {
      stopped = true;
      // a read in progress (standard input waiting for data) is left behind, not awaited
      it.return?.().catch(() => undefined);
      break;
    }
    if (r.done === true) break;
    for (const item of r.value) {
      // Ctrl-C while a batch is being taken in: the rest of it is not (as if it had not been read)
      if (plan.signal?.aborted === true) {
        stopped = true;
        it.return?.().catch(() => undefined);
        break reading;
      }
      let taken = take(item);
      if (taken === 'flush') {
        await submit();
        taken = take(item);
      }
      if (taken === 'full') await submit();
    }
  }
  endAll(null);
  await submit();
  while (inFlight.length > 0) await settleOldest();
  return { aggregate, events, callsWithoutArgs: withoutArgs, issues, evicted, millis: performance.now() - t0, stopped };
}
