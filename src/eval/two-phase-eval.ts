/**
 * The two-phase replay of an evaluation, as a live host sees the runs: each call proposed before it runs
 * (LoopEngine.propose), then recorded with its outcome (record), then judged against the run's label.
 *
 * - a run is *warned* when a decision showed the model a message (a proposal warned, asked or blocked, or
 *   a record added a message to a result);
 * - it *breaks* at its first blocked proposal (deny or stop): the call would not have run, and the run
 *   would have been stopped or turned. The replay of a run ends there, since what the agent did next is
 *   not in the trace; calls from there on are the calls a break would have saved.
 *
 * A call after a person's prompt (TraceCall.prompted: Claude Code, Codex, Gemini CLI) comes after a fresh
 * start (LoopEngine.freshStart), as the agents' hooks give one on each prompt.
 */
import { sessionKey } from '../cli/scan/scan-pipeline.js';
import { LoopEngine } from '../engine/loop-engine.js';
import { readInputs } from '../formats/read-inputs.js';
import type { TraceIssue } from '../formats/trace-record.js';
import type { LoopDetectorOptions } from '../options/options.js';
import type { JudgedRun } from './eval-row.js';
import type { Replay, RunJudge } from './trace-eval.js';

interface Live {
  readonly session: string;
  readonly file: string;
  calls: number;
  warned: boolean;
  firstBlock: number | null;
  first: { kind: string; index: number } | null;
}

/** Replays `inputs` in two-phase order with `options` and judges each run. */
export async function replayTwoPhase(inputs: readonly string[], options: LoopDetectorOptions, judge: RunJudge): Promise<Replay> {
  const started = performance.now();
  const issues: TraceIssue[] = [];
  const engine = new LoopEngine({ ...options, maxSessions: 100_000, idleTtlMs: 0 });
  const live = new Map<string, Live>();
  let calls = 0;
  try {
    for await (const item of readInputs(inputs)) {
      if (item.kind === 'issue') issues.push(item);
      if (item.kind !== 'call') continue;
      calls++;
      const key = sessionKey(item.file, item.session);
      let s = live.get(key);
      if (s === undefined) live.set(key, (s = { session: item.session, file: item.file, calls: 0, warned: false, firstBlock: null, first: null }));
      const index = s.calls++;
      if (s.firstBlock !== null) continue; // the run would have turned here: the rest is not replayed
      const id = `call-${index}`;
      if (item.prompted === true) engine.freshStart(key); // a person's prompt before it: as the agent's hook does
      const p = engine.propose(key, { ...item.event, id });
      if (p.action !== 'allow') {
        s.warned = true;
        s.first ??= { kind: p.verdict?.kind ?? 'blocked', index };
      }
      if (p.action === 'deny' || p.action === 'stop') {
        s.firstBlock = index;
        engine.end(key);
        continue;
      }
      const r = engine.record(key, { ...item.event, id });
      if (r.action !== 'allow') {
        s.warned = true;
        s.first ??= { kind: r.verdict?.kind ?? 'warn', index };
      }
    }
  } finally {
    engine.close();
  }
  const runs: JudgedRun[] = [];
  const unlabelled: string[] = [];
  for (const s of live.values()) {
    const label = judge(s.session);
    if (label === undefined) {
      unlabelled.push(s.session);
      continue;
    }
    runs.push({ session: s.session, file: s.file, ...label, calls: s.calls, warned: s.warned, firstBreak: s.firstBlock, first: s.first, saved: s.firstBlock === null ? 0 : s.calls - s.firstBlock });
  }
  return { runs, unlabelled, issues, calls, millis: performance.now() - started };
}
