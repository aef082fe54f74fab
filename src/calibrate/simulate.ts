/**
 * A candidate policy replayed over a recording, without detectors: per run, the candidate's signals
 * (emulation.ts: re-scored for its thresholds, weighed by its kind weights) go through the real
 * VerdictPolicy and its real EvidenceScreen (with the candidate's turn thresholds), with a SignatureLog
 * and a FactLog for the calls and facts they read, as a session would hand them over. The screen reads
 * each re-scored signal (its decisions depend on the signal's kind, unit and repetitions), so it runs
 * here for each candidate rather than once at recording.
 *
 * - one-phase (as `loopwatch scan` sees a run): every recorded call decided after it ran; the run is
 *   warned at its first verdict and broken at its first break, where the replay stops;
 * - two-phase (as a live host does): each call proposed (a break needs evidence from calls that ran: a
 *   detector's signal about identical calls that stalled, whatever its kind's weight, or the same call
 *   already failed or answered twice alike),
 *   then recorded; a call whose latest verdict was a break and which answered alike twice meets that break
 *   when proposed again (src/live/broken-call.ts); the run ends at the first blocked proposal, as eval's replayTwoPhase ends it. Before
 *   that block no call was blocked, so a proposal is never forced, and it stops the run only when
 *   `stopAfter` is 1 (a block either way).
 *
 * A person's prompt before a call (RecordedCall.fresh) is a fresh start, as LoopDetector.freshStart makes it:
 * the ladder back on its first rung, two-phase the broken call and the latest verdict forgotten, and until a
 * call ran RETURNS times since, its signals about loops begun before left out.
 */
import { BROKEN_DETECTOR } from '../live/broken-call.js';
import { wallSignalOf } from '../live/dead-end-wall.js';
import { sinceFreshStart } from '../live/fresh-start.js';
import { signalsShowStall } from '../live/evidence.js';
import { DEAD_END_DEFAULTS } from '../options/detector-options.js';
import { EvidenceScreen } from '../policy/evidence-screen.js';
import { FAILING_AGAIN_DETECTOR } from '../policy/failing-again.js';
import type { LoopSignal } from '../types.js';
import { VerdictPolicy } from '../policy/verdict-policy.js';
import { type Emulation, type SignalEntry, emulate, entryOf, unweighed } from './emulation.js';
import { FactLog, type RunFacts } from './fact-log.js';
import type { RecordedRun } from './recording.js';
import { KIND_FORMULAS } from './signal-formulas.js';
import { SignatureLog } from './signature-log.js';

/** A recorded call, its signals as entries. */
interface PreparedCall {
  readonly at: number;
  readonly failed: boolean;
  readonly waiting: boolean;
  readonly stalledBefore: boolean;
  readonly lastRun: number;
  readonly alikeFrom: number;
  readonly wall: number;
  /** RecordedCall's: the latest fresh start (0: none), whether it came right before, whether the call ran RETURNS times since. */
  readonly freshAt: number;
  readonly fresh: boolean;
  readonly returned: boolean;
  readonly proposed: readonly SignalEntry[];
  readonly recorded: readonly SignalEntry[];
}

/** A recorded run, ready to be simulated many times. */
export interface PreparedRun {
  readonly session: string;
  readonly file: string;
  readonly calls: number;
  readonly sigs: Uint32Array;
  /** What the session's CallFacts noted of each recorded call. */
  readonly facts: RunFacts;
  readonly list: readonly PreparedCall[];
  /** Whether any call has a signal (a run without one is quiet under every candidate). */
  readonly active: boolean;
}

/** How a replay ended for one run. */
export interface RunOutcome {
  readonly warned: boolean;
  /** The index (among all the run's calls) of the first break or blocked call, or null. */
  readonly firstBreak: number | null;
  /** Calls a break would have saved: one-phase the calls after it, two-phase the calls from it on. */
  readonly saved: number;
}

const QUIET: RunOutcome = Object.freeze({ warned: false, firstBreak: null, saved: 0 });

const NO_ENTRIES: readonly SignalEntry[] = Object.freeze([]);

/** Prepares a recorded run. */
export function prepareRun(run: RecordedRun): PreparedRun {
  let active = false;
  const list = run.recorded.map((c) => {
    const proposed = c.proposed.length === 0 ? NO_ENTRIES : c.proposed.map(entryOf);
    const recorded = c.recorded.length === 0 ? NO_ENTRIES : c.recorded.map(entryOf);
    if (proposed.length !== 0 || recorded.length !== 0) active = true;
    return { at: c.at, failed: c.failed, waiting: c.waiting, stalledBefore: c.stalledBefore, lastRun: c.lastRun, alikeFrom: c.alikeFrom, wall: c.wall, freshAt: c.freshAt, fresh: c.fresh, returned: c.returned, proposed, recorded };
  });
  return { session: run.session, file: run.file, calls: run.calls, sigs: Uint32Array.from(run.recorded, (c) => c.sig), facts: factsOf(run), list, active };
}

/** The facts of a recorded run's calls, as arrays (turns and targets only when some call has one). */
function factsOf(run: RecordedRun): RunFacts {
  const calls = run.recorded;
  const bits = Uint16Array.from(calls, (c) => c.facts);
  const turns = calls.some((c) => c.turn !== undefined) ? Float64Array.from(calls, (c) => c.turn ?? NaN) : null;
  const targets = calls.some((c) => c.target !== 0) ? Uint32Array.from(calls, (c) => c.target) : null;
  return { bits, turns, targets };
}

/** The policy a session of the candidate `em` runs over `run`'s calls, with the views it reads. */
function policyOver(run: PreparedRun, em: Emulation): { log: SignatureLog; facts: FactLog; vp: VerdictPolicy } {
  const log = new SignatureLog(run.sigs, em.capacity);
  const facts = new FactLog(run.facts, em.capacity);
  return { log, facts, vp: new VerdictPolicy(em.policy, log, false, '', new EvidenceScreen(log, facts, em.turns)) };
}

/** The one-phase outcome of `run` under the candidate `em`. */
export function simulateOnePhase(run: PreparedRun, em: Emulation): RunOutcome {
  if (!run.active) return QUIET;
  const { log, facts, vp } = policyOver(run, em);
  let warned = false;
  const list = run.list;
  for (let k = 0; k < list.length; k++) {
    const c = list[k] as PreparedCall;
    log.count = facts.count = k + 1;
    if (c.fresh) vp.freshStart();
    const signals = counted(emulate(c.recorded, em), c, k);
    const v = vp.decide(signals, k, undefined, c.waiting && signals.length !== 0, null, c.failed).verdict;
    if (v === null) continue;
    warned = true;
    if (v.action === 'break') return { warned, firstBreak: c.at, saved: run.calls - c.at - 1 };
  }
  return warned ? { warned, firstBreak: null, saved: 0 } : QUIET;
}

/** The signals of call `c` (at `k`) that count after its run's latest fresh start, as LoopDetector's afterFreshStart keeps them. */
function counted(signals: readonly LoopSignal[], c: PreparedCall, k: number): readonly LoopSignal[] {
  if (c.freshAt <= 0 || c.returned || signals.length === 0) return signals;
  return sinceFreshStart(signals, k, c.freshAt);
}

/** The signal of a call proposed again after it broke when it last ran (src/live/broken-call.ts), at `k`. */
function brokenSignal(from: number, k: number): LoopSignal {
  return { kind: 'state_repeat', detector: BROKEN_DETECTOR, pattern: '', confidence: 1, loopStart: from, unit: [from, k], repeatCount: 2, progress: 'stalled' };
}

const DEAD_END_AT = KIND_FORMULAS.findIndex((f) => f.kind === 'dead_end');

/** The candidate's dead_end threshold, as LoopDetector reads it for the wall (its default when the detector is off). */
function deadEndThreshold(em: Emulation): number {
  const t = em.thresholds[DEAD_END_AT];
  return t === undefined || Number.isNaN(t) ? DEAD_END_DEFAULTS.threshold : t;
}

/** The two-phase outcome of `run` under the candidate `em`. */
export function simulateTwoPhase(run: PreparedRun, em: Emulation): RunOutcome {
  if (!run.active) return QUIET;
  const { log, facts, vp } = policyOver(run, em);
  const stop = em.policy.stopAfter <= 1;
  const cooldown = em.policy.cooldown;
  let warned = false;
  // the call that broke when it last ran (LiveState's entry blocked 0 times), and the quiet records since
  let broke = -1;
  let quiet = 0;
  // the kind of the latest recorded verdict (LiveState.latestVerdictKind), and dead_end's threshold (dead-end-wall.ts)
  let latestKind: string | null = null;
  const wallAt = deadEndThreshold(em);
  const list = run.list;
  for (let k = 0; k < list.length; k++) {
    const c = list[k] as PreparedCall;
    log.count = facts.count = k + 1;
    if (c.fresh) {
      // a person's prompt (LoopDetector.freshStart): the ladder's first rung, the broken calls and the latest verdict forgotten
      vp.freshStart();
      broke = -1;
      latestKind = null;
      quiet = 0;
    }
    let proposed = emulate(c.proposed, em);
    const again = broke >= 0 && c.alikeFrom >= 0 && (run.sigs[broke] as number) === (run.sigs[k] as number);
    if (again) proposed = [...proposed, brokenSignal(c.alikeFrom, k)];
    const wall = latestKind === 'dead_end' && wallAt >= 1 && c.wall >= wallAt && !unweighed(c.proposed, em).some((s) => s.kind === 'dead_end');
    if (wall) proposed = [...proposed, wallSignalOf(k, wallAt, '')];
    proposed = counted(proposed, c, k);
    if (proposed.length !== 0) {
      // evidence is read from the detectors' signals, those of kinds weighing 0 included
      // the same call's runs only when the latest is within the cooldown (src/live/evidence.ts's retriedAfter)
      const recent = cooldown <= 0 || c.lastRun === 0 || c.lastRun <= cooldown;
      const evidence = again || wall || ((signalsShowStall(unweighed(c.proposed, em)) || c.stalledBefore) && recent);
      // decided as a proposal: its facts say so (waiting is not passed: it changes only the ladder's climb,
      // which a proposal never makes)
      facts.proposing = true;
      let v;
      try {
        v = vp.decide(proposed, k, undefined, false, { evidence, stop, force: false }).verdict;
      } finally {
        facts.proposing = false;
      }
      if (v !== null) {
        warned = true;
        if (v.action === 'break') return { warned, firstBreak: c.at, saved: run.calls - c.at };
      }
    }
    const recorded = counted(emulate(c.recorded, em), c, k);
    const v = vp.decide(recorded, k, undefined, c.waiting && recorded.length !== 0, null, c.failed).verdict;
    if (v !== null) warned = true;
    // a warning about a call failing again is left out of the two-phase state, as LoopDetector.record leaves it
    if (v !== null && v.detector !== FAILING_AGAIN_DETECTOR) {
      broke = v.action === 'break' ? k : -1;
      latestKind = v.kind;
      quiet = 0;
    } else if (cooldown > 0 && ++quiet >= cooldown) {
      broke = -1;
      latestKind = null;
    }
  }
  return warned ? { warned, firstBreak: null, saved: 0 } : QUIET;
}
