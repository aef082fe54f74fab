/**
 * The held-out check of a fit, by real replay: every run read once, and replayed with the detection
 * options fitted without its fold, one-phase and two-phase, through LoopEngines exactly as an evaluation
 * replays runs (trace-eval.ts, two-phase-eval.ts): one-phase, each call checked after it ran, its
 * sessions ended as a scan ends them; two-phase, each call proposed then recorded, the run ending at its
 * first blocked proposal. Runs of no fold (no label) are skipped.
 */
import { LoopEngine } from '../engine/loop-engine.js';
import { readInputs } from '../formats/read-inputs.js';
import type { LoopDetectorOptions } from '../options/options.js';
import type { RunOutcome } from './simulate.js';

/** Both replays' outcomes of one run. */
export interface ReplayedRun {
  readonly session: string;
  readonly file: string;
  readonly calls: number;
  readonly onePhase: RunOutcome;
  readonly twoPhase: RunOutcome;
}

interface Live {
  readonly session: string;
  readonly file: string;
  readonly fold: number;
  calls: number;
  warned1: boolean;
  break1: number | null;
  warned2: boolean;
  block: number | null;
}

/** A run's key: its file and session (as a scan keys sessions). */
export const runKey = (file: string, session: string): string => `${file}\u0000${session}`;

/**
 * Replays the runs of `inputs` whose fold `foldOf` names (by file and session id) with `options[fold]`,
 * in reading order.
 */
export async function replayFolds(inputs: readonly string[], options: readonly LoopDetectorOptions[], foldOf: (file: string, session: string) => number | undefined): Promise<ReplayedRun[]> {
  const one = options.map((o) => new LoopEngine({ ...o, maxSessions: 100_000, idleTtlMs: 0 }));
  const two = options.map((o) => new LoopEngine({ ...o, maxSessions: 100_000, idleTtlMs: 0 }));
  const live = new Map<string, Live>();
  const order: Live[] = [];
  try {
    for await (const item of readInputs(inputs)) {
      if (item.kind === 'end' || item.kind === 'input-end') {
        // a scan ends a session when its reader says it is complete; the two-phase replay keeps it
        for (const s of live.values()) {
          if (s.file !== item.file || (item.kind === 'end' && s.session !== item.session)) continue;
          one[s.fold]?.end(runKey(s.file, s.session));
          if (item.kind === 'input-end') two[s.fold]?.end(runKey(s.file, s.session));
        }
        continue;
      }
      if (item.kind !== 'call') continue;
      const key = runKey(item.file, item.session);
      let s = live.get(key);
      if (s === undefined) {
        const fold = foldOf(item.file, item.session);
        if (fold === undefined) continue;
        s = { session: item.session, file: item.file, fold, calls: 0, warned1: false, break1: null, warned2: false, block: null };
        live.set(key, s);
        order.push(s);
      }
      const index = s.calls++;
      // a person's prompt before the call: a fresh start in both phases, as the agents' hooks give one
      if (item.prompted === true) {
        (one[s.fold] as LoopEngine).freshStart(key);
        if (s.block === null) (two[s.fold] as LoopEngine).freshStart(key);
      }
      let v = null;
      try {
        v = (one[s.fold] as LoopEngine).check(key, item.event);
      } catch {
        // a call the session refuses: no verdict (a scan counts it as refused)
      }
      if (v !== null) {
        s.warned1 = true;
        if (v.action === 'break' && s.break1 === null) s.break1 = index;
      }
      if (s.block !== null) continue;
      const engine = two[s.fold] as LoopEngine;
      const id = `call-${index}`;
      const p = engine.propose(key, { ...item.event, id });
      if (p.action !== 'allow') s.warned2 = true;
      if (p.action === 'deny' || p.action === 'stop') {
        s.block = index;
        engine.end(key);
        continue;
      }
      if (engine.record(key, { ...item.event, id }).action !== 'allow') s.warned2 = true;
    }
  } finally {
    for (const e of [...one, ...two]) e.close();
  }
  return order.map((s) => ({
    session: s.session,
    file: s.file,
    calls: s.calls,
    onePhase: { warned: s.warned1, firstBreak: s.break1, saved: s.break1 === null ? 0 : s.calls - s.break1 - 1 },
    twoPhase: { warned: s.warned2, firstBreak: s.block, saved: s.block === null ? 0 : s.calls - s.block },
  }));
}
