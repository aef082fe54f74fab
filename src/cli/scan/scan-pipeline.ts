/**
 * The scan's data path: trace items -> batches of calls -> the checker (pool or engine) -> verdicts, in
 * input order, tallied per session and handed to the output as they arrive.
 *
 * ```
 *   reader items --call--> open batch ──full──> checker.checkBatch ──> in flight (at most DEPTH)
 *                --end---> (after the batch holding its calls) checker.end        │ oldest first
 *                --issue-> sink.issue                                             v
 *                                                   tally + sink.verdict per call, in input order
 * ```
 *
 * Live sessions are capped here (`maxLive`, least recently used ended first, and counted), not by the
 * checker, so verdicts never depend on the worker count. Memory: the open and in-flight batches, the live
 * sessions' detector state, and one small tally per session seen.
 */
import { type SessionEvent, sessionEvent } from '../../engine/loop-engine.js';
import { SessionTable } from '../../engine/session-table.js';
import type { TraceCall, TraceIssue, TraceItem } from '../../formats/trace-record.js';
import type { LoopAction, Verdict } from '../../types.js';
import type { SessionChecker } from './session-checker.js';
import { ACTION_RANK, SessionTally } from './session-tally.js';

/** Where a scan's findings go as they are made. */
export interface ScanSink {
  /** A verdict at or above the reporting threshold, about `call` (the session's call `index`). */
  verdict(v: Verdict, call: TraceCall, index: number, tally: SessionTally): void;
  /** A skipped line, element or input, or a call the checker refused. */
  issue(issue: TraceIssue): void;
  /** Called after each batch's verdicts are in (for progress); a promise holds the scan until it settles (output backpressure). */
  batchDone?(calls: number): void | Promise<void>;
}

/** How a scan runs. */
export interface ScanPlan {
  /** Lowest action reported. */
  readonly minAction: LoopAction;
  /** Most sessions checked at once; the least recently used is ended to make room. */
  readonly maxLive: number;
  /** Calls per batch handed to the checker. */
  readonly batchSize: number;
}

/** What a scan saw, beside what the sink was told. */
export interface ScanTotals {
  /** Every session seen, in order of first appearance. */
  readonly sessions: readonly SessionTally[];
  /** Calls read. */
  readonly events: number;
  /** Lines, elements or inputs skipped (and calls the checker refused). */
  readonly issues: number;
  /** Sessions ended early to stay within `maxLive`. */
  readonly evicted: number;
  /** Wall time of the scan, ms. */
  readonly millis: number;
}

/** Batches a scan has with the checker at once. */
const DEPTH = 4;

interface Batch {
  readonly events: SessionEvent[];
  readonly calls: TraceCall[];
  readonly index: number[];
  /** Sessions to end once the batch's calls are submitted. */
  readonly ends: Set<string>;
}

const emptyBatch = (): Batch => ({ events: [], calls: [], index: [], ends: new Set() });

/** Scans `items` with `checker`, reporting to `sink`; the checker is left open. */
export async function runScan(items: AsyncIterable<TraceItem>, checker: SessionChecker, plan: ScanPlan, sink: ScanSink): Promise<ScanTotals> {
  const t0 = performance.now();
  const tallies = new Map<string, SessionTally>();
  const live = new SessionTable<SessionTally>();
  const inFlight: { batch: Batch; verdicts: Promise<(Verdict | null | Error)[]> }[] = [];
  const minRank = ACTION_RANK[plan.minAction];
  let open = emptyBatch();
  let events = 0;
  let issues = 0;
  let evicted = 0;

  const settleOldest = async (): Promise<void> => {
    const { batch, verdicts } = inFlight.shift() as (typeof inFlight)[number];
    const out = await verdicts;
    for (let k = 0; k < out.length; k++) {
      const r = out[k];
      if (r === null || r === undefined) continue;
      const call = batch.calls[k] as TraceCall;
      const tally = tallies.get(call.session) as SessionTally;
      if (r instanceof Error) {
        tally.failed++;
        issues++;
        sink.issue({ kind: 'issue', code: 'bad-record', file: call.file, line: call.line, message: `call not checked: ${r.message}` });
      } else {
        tally.noteAny(r.action);
        if (ACTION_RANK[r.action] >= minRank) {
          tally.addVerdict(r, batch.index[k] as number, call.event.tool);
          sink.verdict(r, call, batch.index[k] as number, tally);
        }
      }
    }
    await sink.batchDone?.(batch.calls.length);
  };

  const submit = async (): Promise<void> => {
    if (open.events.length === 0 && open.ends.size === 0) return;
    const batch = open;
    open = emptyBatch();
    inFlight.push({ batch, verdicts: batch.events.length === 0 ? Promise.resolve([]) : checker.checkBatch(batch.events) });
    // an end that fails (a pool whose worker died) changes no verdict already given
    for (const s of batch.ends) checker.end(s).catch(() => undefined);
    if (inFlight.length >= DEPTH) await settleOldest();
  };

  const endSession = (session: string): void => {
    if (live.delete(session) !== undefined) open.ends.add(session);
  };

  for await (const item of items) {
    if (item.kind === 'issue') {
      issues++;
      sink.issue(item);
      continue;
    }
    if (item.kind === 'end') {
      endSession(item.session);
      continue;
    }
    // a session ended in the open batch starts again only after that end reaches the checker
    if (open.ends.has(item.session)) await submit();
    let tally = live.use(item.session, 0)?.value;
    if (tally === undefined) {
      if (live.size >= plan.maxLive) {
        const [oldest] = live.oldest() as [string, unknown];
        endSession(oldest);
        evicted++;
      }
      tally = tallies.get(item.session);
      if (tally === undefined) {
        tally = new SessionTally(item.session, item.file);
        tallies.set(item.session, tally);
      }
      live.add(item.session, tally, 0);
    }
    const index = tally.calls++;
    tally.noteStep(index, item.event.step);
    events++;
    open.events.push(sessionEvent(item.session, item.event));
    open.calls.push(item);
    open.index.push(index);
    if (open.events.length >= plan.batchSize) await submit();
  }
  await submit();
  while (inFlight.length > 0) await settleOldest();
  return { sessions: [...tallies.values()], events, issues, evicted, millis: performance.now() - t0 };
}
