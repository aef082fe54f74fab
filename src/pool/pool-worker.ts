/**
 * The worker thread of a LoopPool shard: one LoopEngine holding the shard's sessions. It applies packed
 * batches in the order they arrive and answers with the verdicts (sparse: only calls that got one), the
 * two-phase decisions (sparse: only those that are not a plain `allow`, as codes, see wire-decisions.ts),
 * the errors, the snapshots due and the sessions its engine dropped.
 *
 * A worker serves one incarnation of its shard (an epoch) set by the `start` task: a worker that was
 * started to replace a dead one answers every batch of an older epoch as stale, untouched, so the pool can
 * restore the shard's sessions before any of their calls run again.
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { LINE_FLUSH, LoopEngine } from '../engine/loop-engine.js';
import type { LoopEngineOptions } from '../engine/engine-options.js';
import { ByteReader } from '../snapshot/byte-reader.js';
import { liveCallOf } from '../live/live-call.js';
import type { ToolEvent } from '../types.js';
import { Op, type PackedOp, isLiveOp, readOp } from './event-packing.js';
import { decisionCode } from './wire-decisions.js';
import { toWire } from './wire-errors.js';
import { factFlags, factStep as factStep_ } from '../wire/routed-line.js';
import type { HangTask, RunResult, RunTask, StartResult, StartTask } from './worker-tasks.js';

const STALE: RunResult = { stale: true, verdictAt: [], verdicts: [], decisionAt: [], decisions: [], errorAt: [], errors: [], valueAt: [], values: [], snapshots: [], dropped: [] };

interface ShardState {
  readonly epoch: number;
  readonly engine: LoopEngine;
  readonly every: number;
  /** Calls per session since its last snapshot (only when snapshots are on). */
  readonly since: Map<string, number>;
  dropped: string[];
}

let state: ShardState | null = null;

/** Holds this thread `ms` (Infinity: for good) without yielding, as a detector stuck in a loop would: tests only. */
function spin(ms: number): null {
  const until = Date.now() + ms;
  while (Date.now() < until);
  return null;
}

function start(task: StartTask): StartResult {
  if (task.hangMs !== undefined) spin(task.hangMs);
  state?.engine.close();
  const since = new Map<string, number>();
  const s: ShardState = {
    epoch: task.epoch,
    every: task.snapshotEvery,
    since,
    dropped: [],
    engine: new LoopEngine({
      ...(task.options as LoopEngineOptions),
      onEvict: (e) => {
        s.dropped.push(e.sessionId);
        since.delete(e.sessionId);
      },
    }),
  };
  state = s;
  const failed: [string, string][] = [];
  for (const [session, bytes] of task.snapshots) {
    try {
      s.engine.restore(session, bytes);
    } catch (err) {
      failed.push([session, err instanceof Error ? err.message : String(err)]);
    }
  }
  return { failed };
}

function run(task: RunTask): RunResult {
  const s = state;
  // stale: the bytes go back (with every answer: see handle) so the pool can send them again after restoring the sessions
  if (s === null || s.epoch !== task.epoch) return STALE;
  const factAt: number[] = [];
  const factStep: number[] = [];
  const factFlagsOut: number[] = [];
  const out: RunResult = { verdictAt: [], verdicts: [], decisionAt: [], decisions: [], errorAt: [], errors: [], valueAt: [], values: [], snapshots: [], dropped: [], factAt, factStep, factFlags: factFlagsOut };
  s.dropped = out.dropped;
  const r = new ByteReader(new Uint8Array(task.buffer, 0, task.length));
  const checks: NonNullable<PackedOp['event']>[] = [];
  let firstCheck = 0;
  let i = 0;
  const touched = s.every > 0 ? new Set<string>() : null;
  const flushChecks = (): void => {
    if (checks.length === 0) return;
    const results = s.engine.checkBatch(checks);
    for (let k = 0; k < results.length; k++) {
      const v = results[k];
      if (v === null || v === undefined) continue;
      if (v instanceof Error) {
        out.errorAt.push(firstCheck + k);
        out.errors.push(toWire(v));
      } else {
        out.verdictAt.push(firstCheck + k);
        out.verdicts.push(v);
      }
    }
    checks.length = 0;
  };
  for (; r.more(); i++) {
    const op = readOp(r);
    if (touched !== null && (op.op === Op.CHECK || op.op === Op.TEXT || op.op === Op.RESTORE || op.op === Op.FRESH || isLiveOp(op.op))) {
      touched.add(op.session);
      s.since.set(op.session, (s.since.get(op.session) ?? 0) + (op.op === Op.RESTORE ? s.every : 1));
    }
    if (op.op === Op.CHECK) {
      if (checks.length === 0) firstCheck = i;
      const event = op.event as NonNullable<PackedOp['event']>;
      checks.push(event);
      if (op.line === true) {
        factAt.push(i);
        factStep.push(factStep_(event));
        factFlagsOut.push(factFlags(event));
      }
      // checked a few at a time, as LoopEngine.checkLines does: the calls read out of the batch are this
      // thread's young objects, and a whole batch of them alive at once made every scavenge copy them
      if (checks.length >= LINE_FLUSH) flushChecks();
      continue;
    }
    flushChecks();
    if (op.op === Op.LINE) {
      // a routed line that holds no call: its error in its place (it touched no session)
      out.errorAt.push(i);
      out.errors.push(toWire(op.error));
      continue;
    }
    try {
      switch (op.op) {
        case Op.TEXT: {
          const v = s.engine.checkText(op.session, op.text ?? '');
          if (v !== null) {
            out.verdictAt.push(i);
            out.verdicts.push(v);
          }
          break;
        }
        case Op.END:
          s.engine.end(op.session);
          s.since.delete(op.session);
          touched?.delete(op.session);
          break;
        case Op.FRESH:
          out.valueAt.push(i);
          out.values.push(s.engine.freshStart(op.session));
          break;
        case Op.SNAPSHOT:
          out.valueAt.push(i);
          out.values.push(s.engine.snapshot(op.session));
          break;
        case Op.RESTORE:
          s.engine.restore(op.session, op.bytes as Uint8Array);
          break;
        case Op.STATS:
          out.valueAt.push(i);
          out.values.push(s.engine.stats());
          break;
        case Op.PROPOSE:
        case Op.RECORD:
          decide(s.engine, op, i, out);
          break;
        case Op.DECLINE:
          s.engine.decline(op.session, liveCallOf(op.event as ToolEvent, op.id));
          break;
      }
    } catch (err) {
      out.errorAt.push(i);
      out.errors.push(toWire(err));
    }
  }
  flushChecks();
  if (touched !== null) {
    for (const session of touched) {
      if ((s.since.get(session) ?? 0) < s.every) continue;
      const stats = s.engine.sessionStats(session);
      if (stats === null) continue;
      try {
        out.snapshots.push([session, stats.checks, s.engine.snapshot(session) as Uint8Array]);
        s.since.set(session, 0);
      } catch {
        // a session that cannot be snapshotted (quarantined after a trap) keeps its previous snapshot
      }
    }
  }
  return out;
}

/** Proposes or records a packed call; its decision goes out as its verdict and, unless a plain allow, its code. */
function decide(engine: LoopEngine, op: PackedOp, i: number, out: RunResult): void {
  const d = op.op === Op.PROPOSE ? engine.propose(op.session, liveCallOf(op.event as ToolEvent, op.id)) : engine.record(op.session, liveCallOf(op.event as ToolEvent, op.id));
  if (d.verdict !== null) {
    out.verdictAt.push(i);
    out.verdicts.push(d.verdict);
  }
  const code = decisionCode(d);
  if (code !== 0) {
    out.decisionAt.push(i);
    out.decisions.push(code);
  }
}

/**
 * The worker's entry point (piscina calls it once per task). A run's batch buffer goes back with its answer,
 * transferred (nothing here holds a view of it once the batch is read), for the shard to write its next
 * batch into: no buffer is allocated, zeroed and collected per batch.
 */
export default function handle(task: StartTask | RunTask | HangTask): StartResult | null | ReturnType<typeof move> {
  if (task.kind === 'start') return start(task);
  if (task.kind === 'hang') return spin(task.ms);
  const result = run(task);
  const buffer = task.buffer;
  return move({ [transferableSymbol]: buffer, [valueSymbol]: { ...result, buffer } });
}
