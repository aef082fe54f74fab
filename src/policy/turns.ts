/**
 * Parallel calls of one model turn are one decision. A model that reads twelve numbered files at once, or
 * sends four messages that fail together on the same validation error, decided once: the repetition is
 * inside its answer, not a loop over answers. So a built-in signal's repetitions are counted in turns (the
 * events' `round`, or the turn of calls in flight together in two-phase use: see call-facts.ts): calls of
 * one turn count once, calls without a known turn count one each, and a signal
 * whose repetitions span fewer turns than its detector's own threshold is no evidence of a loop.
 *
 * ```
 *   round:   7    7    7    7    8      similar args over five Reads of numbered files
 *   calls:   r1   r2   r3   r4   r5     five calls, two turns: under the threshold of 3, set aside
 * ```
 *
 * Events without rounds (most traces, most libraries' callers) count as before: one call, one turn.
 */
import { RESULT_REPEAT_CONFIDENCE, VARIED_CALLS_EXTRA } from '../detectors/result-repeat.js';
import type { DetectorsOptions } from '../options/options.js';
import type { LoopSignal } from '../types.js';
import type { PolicyLog } from './policy-log.js';
import { CallFact } from './call-facts.js';
import type { ScreenFacts } from './screen-facts.js';

/** Turns a built-in kind's repetitions must span: its detector's own threshold. */
export type TurnThresholds = ReadonlyMap<string, number>;

const made = new WeakMap<DetectorsOptions, TurnThresholds>();

/** The turn thresholds of the detectors configured (a kind whose detector is off has none); one per options. */
export function turnThresholds(d: DetectorsOptions): TurnThresholds {
  let m = made.get(d);
  if (m === undefined) made.set(d, (m = thresholdsOf(d)));
  return m;
}

function thresholdsOf(d: DetectorsOptions): TurnThresholds {
  const m = new Map<string, number>();
  if (d.exactRepeat) m.set('exact_repeat', d.exactRepeat.threshold);
  if (d.frequency) m.set('frequency', d.frequency.threshold);
  if (d.cycle) m.set('cycle', d.cycle.repetitions);
  if (d.semantic) m.set('semantic', d.semantic.minSimilar + 1);
  if (d.similarArgs) m.set('similar_args', d.similarArgs.threshold);
  if (d.resultRepeat) m.set('result_repeat', d.resultRepeat.threshold);
  if (d.deadEnd) m.set('dead_end', d.deadEnd.threshold);
  if (d.stateRepeat) m.set('state_repeat', d.stateRepeat.threshold);
  return m;
}

/**
 * The calls a signal says repeat, ascending: its unit when it names several calls (similar calls, results,
 * errors), every call of a cycle's span, else the occurrences of the current call since the loop began
 * (exact repeat, frequency, state repeat name the current call alone).
 */
export function repetitionsOf(log: PolicyLog, s: LoopSignal, index: number): readonly number[] {
  const from = s.loopStart ?? index;
  if (s.kind === 'cycle') {
    const all: number[] = [];
    for (let i = from; i <= index; i++) all.push(i);
    return all;
  }
  const unit = s.unit ?? [index];
  if (unit.length > 1) return unit;
  const sig = log.signatureLow(index);
  const out: number[] = [];
  for (let i = from; i <= index; i++) if (log.signatureLow(i) === sig) out.push(i);
  return out.length === 0 ? [index] : out;
}

/**
 * Whether `calls` span at least `need` turns (a round counted once; a call without one, once each). Fewer
 * calls than `need` say nothing (the repetitions were not all found: older than the log, or a state repeat
 * keyed by a description shared by different calls): true. A call that never ran (declined by the person,
 * or cancelled by the agent when a call beside it failed: CallFact.DECLINED) is no turn of work repeated.
 * The very same call failing again beside itself in one turn (same signature, both FAILED) is a failure
 * repeated, not one decision fanned out: it counts once of its own, as it would have one by one (par1:
 * three identical failing calls a step were otherwise first warned at the third step).
 *
 * ```
 *   round:   4     4     4     5          npm run build x3, each failing, then proposed again
 *   turns:   1    +1    +1    +1  = 4     was 2: under the threshold of 3, so the 2nd step ran unwarned
 * ```
 */
export function spansTurns(facts: ScreenFacts, calls: readonly number[], need: number, log?: PolicyLog): boolean {
  if (calls.length < need) return true;
  // the rounds seen, made by the first call with one (most events have none)
  let rounds: Set<number> | null = null;
  // per round, the signatures of its calls that failed (made by the first failed call with a round)
  let failedIn: Map<number, Set<number>> | null = null;
  let turns = 0;
  for (const i of calls) {
    const f = facts.of(i);
    if ((f & CallFact.DECLINED) !== 0) continue;
    const r = facts.turnOf(i);
    if (r === undefined) turns++;
    else if (!(rounds ??= new Set<number>()).has(r)) {
      rounds.add(r);
      turns++;
      if (log !== undefined && (f & CallFact.FAILED) !== 0) noteFailed((failedIn ??= new Map()), r, log.signatureLow(i));
    } else if (log !== undefined && (f & CallFact.FAILED) !== 0 && failedAgain((failedIn ??= new Map()), r, log.signatureLow(i))) turns++;
    if (turns >= need) return true;
  }
  return false;
}

/** Notes a failed call's signature in its round. */
function noteFailed(failedIn: Map<number, Set<number>>, round: number, sig: number | undefined): void {
  if (sig === undefined) return;
  let s = failedIn.get(round);
  if (s === undefined) failedIn.set(round, (s = new Set<number>()));
  s.add(sig);
}

/** Whether a failed call of `round` repeats a call of that round that failed before it (else it is noted). */
function failedAgain(failedIn: Map<number, Set<number>>, round: number, sig: number | undefined): boolean {
  if (sig === undefined) return false;
  if (failedIn.get(round)?.has(sig) === true) return true;
  noteFailed(failedIn, round, sig);
  return false;
}

/**
 * Whether a signal is evidence of a loop over turns: a built-in signal's repetitions must span its
 * detector's threshold in turns (varied calls getting the very same answer: that many more); other signals
 * (custom detectors, chanting, a blocked call proposed again) always are.
 */
export function repeatsOverTurns(log: PolicyLog, facts: ScreenFacts, thresholds: TurnThresholds, s: LoopSignal, index: number): boolean {
  if (s.detector !== s.kind) return true;
  let need = thresholds.get(s.kind);
  if (need === undefined) return true;
  if (s.kind === 'result_repeat' && s.confidence > RESULT_REPEAT_CONFIDENCE) need += VARIED_CALLS_EXTRA;
  return spansTurns(facts, repetitionsOf(log, s, index), need, log);
}
