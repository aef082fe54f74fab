/**
 * From the signals of one call to a verdict, or silence:
 *
 * 1. progress gate: a signal about repeated calls whose results kept changing (or, for a fuzzy signal,
 *    whose outcomes do not show a stall) is set aside (`suppress`), kept but escalated at half speed
 *    (`slow`), or kept as is (`ignore`);
 * 2. fusion into one confidence, dropped below `minConfidence`;
 * 3. the ladder's action, climbing faster on no-progress evidence (the same call with the same result);
 * 4. the recommended next step and the message, texts cut to {@link VERDICT_TEXT_LIMIT} and secrets redacted;
 * 5. the caller's `onDetect`, which may override the action or drop the verdict.
 */
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';
import { DetectorError } from '../errors.js';
import { NO_KIND_WEIGHTS, type PolicyOptions } from '../options/options.js';
import { clampConfidence } from '../detectors/context.js';
import { redactSecrets } from '../text/redact.js';
import { cutText } from '../text/shown-text.js';
import type { CallRef, LoopAction, LoopSignal, Verdict } from '../types.js';
import type { PolicyLog } from './policy-log.js';
import { SAME_CALL_KINDS } from '../live/evidence.js';
import { BROKEN_DETECTOR } from '../live/broken-call.js';
import { WALL_DETECTOR } from '../live/dead-end-wall.js';
import type { EvidenceScreen } from './evidence-screen.js';
import { failingAgainAlone } from './failing-again.js';
import { fuse } from './fuse.js';
import { interleavedWithNewWork } from './interleaving.js';
import { Ladder } from './ladder.js';
import { BLOCKED, CONSEQUENCE, verdictMessage } from './message.js';
import { recommend } from './recommend.js';
import { SignalCopy } from './signal-copy.js';
import { cycleWithoutOutcomes } from './unknown-outcomes.js';

export { INTERLEAVE_SPAN, interleavedWithNewWork } from './interleaving.js';

const ACTIONS: ReadonlySet<string> = new Set(['warn', 'ask', 'break']);

/** Signals of the session's own evidence (a blocked call, a call that broke when it ran, a dead end's wall met again): never weighed. */
const SESSION_DETECTORS: ReadonlySet<string> = new Set(['blocked', BROKEN_DETECTOR, WALL_DETECTOR]);

/** No `kindWeights` (every kind 1): signals are used as they are. */
const NO_WEIGHTS = NO_KIND_WEIGHTS;

/**
 * Whether a signal's repetitions show progress: a call signal whose outcomes kept changing, or a fuzzy
 * one (similar, not identical, calls) whose outcomes are known but do not show a stall.
 */
function showsProgress(s: LoopSignal): boolean {
  if (s.progressGated !== true) return false;
  if (s.fuzzy === true) return s.progress !== 'stalled' && s.progress !== 'unknown' && s.progress !== undefined;
  return s.progress === 'changing';
}

/**
 * Whether a signal of similar calls is marked as progress already (`changing`, `mixed`): the screen may set it
 * aside or mark it `changing`, and either way the progress gate shows progress (see weigh).
 */
function markedProgress(s: LoopSignal): boolean {
  return s.fuzzy === true && s.progressGated === true && (s.progress === 'changing' || s.progress === 'mixed');
}

/** A signal as plain, frozen data: its documented fields only, text passed through `clean` (redaction). */
function signalData(s: LoopSignal, clean: (text: string) => string): LoopSignal {
  const out: Record<string, unknown> = {
    kind: s.kind,
    detector: s.detector,
    pattern: clean(s.pattern),
    confidence: s.confidence,
  };
  if (s.loopStart !== undefined) out.loopStart = s.loopStart;
  if (s.unit !== undefined) out.unit = Object.freeze([...s.unit]);
  if (s.repeatCount !== undefined) out.repeatCount = s.repeatCount;
  if (s.progress !== undefined) out.progress = s.progress;
  if (s.progressGated !== undefined) out.progressGated = s.progressGated;
  if (s.fuzzy !== undefined) out.fuzzy = s.fuzzy;
  if (s.chunk !== undefined) out.chunk = clean(s.chunk);
  return Object.freeze(out) as unknown as LoopSignal;
}

/**
 * `s` weighed by `weights` (`kindWeights`): its confidence times its kind's weight, capped at 1; null for
 * a kind weighing 0. The session's own evidence (a blocked call's signal, a broken call's) is never weighed.
 */
export function weighSignal(s: LoopSignal, weights: Readonly<Record<string, number>>): LoopSignal | null {
  const weight = !SESSION_DETECTORS.has(s.detector) && Object.hasOwn(weights, s.kind) ? (weights[s.kind] as number) : 1;
  if (weight === 1) return s;
  return weight > 0 ? new SignalCopy(s, clampConfidence(s.confidence * weight), s.progress, s.progressGated) : null;
}

/**
 * A fact of the call decided on that the policy reads only for a signal it keeps (the call polls, the call
 * failed): a boolean, or an object whose `value` reads it then (session/checked-call-flags.ts).
 */
export type CallFlag = boolean | { readonly value: boolean };

/** A CallFlag's value. */
const flagValue = (f: CallFlag): boolean => (typeof f === 'boolean' ? f : f.value);

/** What the policy decided for one call. */
export interface Decision {
  readonly verdict: Verdict | null;
  /** Signals set aside because their results kept changing. */
  readonly tolerated: number;
}

/**
 * Characters of a verdict's pattern, chunk and kind (and of each signal's) kept; longer ones (a custom
 * detector's, a pattern naming a huge tool) are cut with `…` before redaction reads them.
 */
export const VERDICT_TEXT_LIMIT = 4096;

const keep = (text: string): string => cutText(text, VERDICT_TEXT_LIMIT);

/** Texts a verdict's memo of redactions searches one by one before it makes a Map (see memoRedact). */
const LISTED_TEXTS = 8;

/**
 * Cut, then redactSecrets, remembering its answers (a verdict's texts repeat across its parts: the primary's
 * pattern in its signal entry, a tool name in each call of the unit). Most verdicts have a handful of texts,
 * most repeats the very same string: a list searched by `===` (no hash of each text, as a Map makes), and a
 * Map past {@link LISTED_TEXTS} of them (a long unit of many tools).
 */
function memoRedact(): (text: string) => string {
  const seen: string[] = [];
  const answers: string[] = [];
  let map: Map<string, string> | null = null;
  return (text) => {
    if (map === null) {
      for (let k = 0; k < seen.length; k++) if (seen[k] === text) return answers[k] as string;
    } else {
      const known = map.get(text);
      if (known !== undefined) return known;
    }
    const out = redactSecrets(cutText(text, VERDICT_TEXT_LIMIT));
    if (map !== null) map.set(text, out);
    else if (seen.length < LISTED_TEXTS) {
      seen.push(text);
      answers.push(out);
    } else {
      map = new Map<string, string>();
      for (let k = 0; k < seen.length; k++) map.set(seen[k] as string, answers[k] as string);
      map.set(text, out);
    }
    return out;
  };
}

/** `ref` with its tool name passed through `clean` (itself when that changes nothing). */
function cleanRef(ref: CallRef, clean: (text: string) => string): CallRef {
  const tool = clean(ref.tool);
  return tool === ref.tool ? ref : Object.freeze({ ...ref, tool });
}

/**
 * Kinds whose signal names the current call alone as its unit while the call itself came back since the
 * signal's `loopStart`: its repetitions are the earlier calls with the same signature from there on.
 */
const RECURRING_KINDS: ReadonlySet<string> = new Set(['frequency', 'state_repeat']);

/**
 * The calls the signals say repeat: their units together and, when the current call failed, the earlier
 * occurrences of a recurring failing call (so a failure that keeps coming back between new work is weighed
 * as a dead end's failures are); ascending. Null when a recurring failure's first occurrence is older than
 * the call log holds: its repetitions are spread over more calls than are kept, other work between them; so
 * too for a recurring call or state that did not fail when none of its repetitions is still in the log (a
 * setup script or a template read again at the start of each new piece of work, dozens of calls apart).
 */
function repeatedCalls(log: PolicyLog, failed: boolean, signals: readonly LoopSignal[], index: number): number[] | null {
  const all = new Set<number>();
  for (const sg of signals) {
    for (const i of sg.unit ?? [index]) all.add(i);
    const from = sg.loopStart;
    if (!RECURRING_KINDS.has(sg.kind) || from === undefined || from >= index) continue;
    if (!failed) {
      // a state or call back only after more calls than the log keeps, none of its repetitions kept: other work filled the span
      if (log.signatureLow(from) === undefined && !keptRepetition(log, index)) return null;
      continue;
    }
    const sig = log.signatureLow(index);
    if (log.signatureLow(from) === undefined) return null;
    for (let i = from; i < index; i++) if (log.signatureLow(i) === sig) all.add(i);
  }
  return [...all].sort((a, b) => a - b);
}

/** Whether a call before `index` still in the log is the same call as it. */
function keptRepetition(log: PolicyLog, index: number): boolean {
  const sig = log.signatureLow(index);
  for (let i = index - 1; i >= 0; i--) {
    const s = log.signatureLow(i);
    if (s === undefined) return false;
    if (s === sig) return true;
  }
  return false;
}

/** A proposal's action: the ladder's, a break only with evidence (else a warning), a break when forced. */
function proposedAction(ladder: LoopAction, rule: ProposalRule): LoopAction {
  if (rule.force) return 'break';
  return ladder === 'break' && !rule.evidence ? 'warn' : ladder;
}

const QUIET: Decision = Object.freeze({ verdict: null, tolerated: 0 });

/**
 * How a proposal (a call checked before it runs) is decided: nothing is counted or climbed (the call is
 * not recorded), and a break needs evidence from calls that ran.
 */
export interface ProposalRule {
  /** The same call (or cycle) already ran and failed or got the same outcome again, or was blocked. */
  readonly evidence: boolean;
  /** The session was blocked before: a break now stops the run instead of blocking one call. */
  readonly stop: boolean;
  /** The call was blocked before and comes again: a break whatever the ladder says. */
  readonly force: boolean;
}

/** The ladder's key of a loop whose repeated call's signature has these low 32 bits (never 0: 0 names no loop). */
const ladderKey = (signatureLow: number | undefined): number => (signatureLow ?? 0) >>> 0 || 1;

/** A ladder no verdict has climbed (what a session without one saves; never changed). */
const FIRST_RUNG = new Ladder([], 0);

/** The verdict policy of one session. */
export class VerdictPolicy {
  /**
   * The action ladder, made by the first verdict: before one, it stands on its first rung and quiet calls
   * change nothing it would act on (a climb starts their count again), so most sessions never make it.
   */
  private climbed: Ladder | null = null;
  private count = 0;

  constructor(
    private readonly p: PolicyOptions,
    private readonly log: PolicyLog,
    private readonly redact: boolean,
    private readonly session: string = '',
    /** The host's reading of what each signal is evidence of (see evidence-screen.ts); none: as given. */
    readonly screen: EvidenceScreen | null = null,
  ) {}

  private get ladder(): Ladder {
    return (this.climbed ??= new Ladder(this.p.ladder, this.p.cooldown));
  }

  /** Verdicts given so far in the session. */
  get detections(): number {
    return this.count;
  }

  /**
   * Decides about the call at `index` (with the caller's `step`) given its signals, in detector order.
   * `waiting`: the call's answer says the work is still under way (polling): the verdict climbs
   * `interleavedStep` rungs (half a rung by default), as when results are still changing, however identical
   * the answers. `waiting` and `failed` are read only for a signal kept past the screen and `minConfidence`.
   */
  decide(signals: readonly LoopSignal[], index: number, step: number | undefined, waiting: CallFlag = false, proposal: ProposalRule | null = null, failed: CallFlag = false): Decision {
    if (signals.length === 0) {
      if (proposal === null) this.climbed?.quietCall();
      return QUIET;
    }
    return this.weigh(signals, index, step, waiting, proposal, failed);
  }

  /**
   * Counts a verdict that blocked a proposed call (the call is not recorded, the verdict stands): the ladder
   * climbs keyed to the blocked call (`signatureLow`: the low 32 bits of its signature, read before its
   * proposal was rolled back), so a different loop begun after the block is a new loop (ladder.ts).
   */
  noteBlocked(verdict: Verdict, signatureLow: number | undefined): void {
    this.ladder.climbBlocked(1, ladderKey(signatureLow), verdict.loopStart, verdict.index);
    this.count++;
  }

  /**
   * decide() for a call with signals. A function of its own: its closures make V8 allocate a context on
   * entry, which the quiet calls (most calls) should not pay for.
   */
  private weigh(signals: readonly LoopSignal[], index: number, step: number | undefined, waiting: CallFlag, proposal: ProposalRule | null, failed: CallFlag): Decision {
    const p = this.p;
    let tolerated = 0;
    let kept: LoopSignal[] | null = null;
    const suppress = p.progress === 'suppress';
    for (const given of this.weighted(signals)) {
      // a signal of similar calls already marked as progress: `suppress` tolerates it whatever the screen
      // marks, unless the screen sets it aside (most semantic signals on real calls: docs/speed.md, "sigcost")
      if (suppress && this.screen !== null && markedProgress(given)) {
        if (!this.screen.setsAside(given, index)) tolerated++;
        continue;
      }
      const s = this.screen === null ? given : this.screen.screen(given, index);
      if (s === null) continue;
      if (suppress && showsProgress(s)) tolerated++;
      else (kept ??= []).push(s);
    }
    if (kept === null) return this.quiet(proposal, tolerated);
    return this.weighKept(kept, tolerated, index, step, waiting, proposal, failed);
  }

  /** The decision on a call whose signals were all set aside or tolerated: a quiet call (not for a proposal). */
  private quiet(proposal: ProposalRule | null, tolerated: number): Decision {
    // a proposal changes nothing: no quiet call, no climb, no count
    if (proposal === null) this.climbed?.quietCall();
    return tolerated === 0 ? QUIET : { verdict: null, tolerated };
  }

  /**
   * weigh() for the signals kept past the screen and the progress gate (non-empty). A function of its own: its
   * closures make V8 allocate a context on entry, which calls whose signals are all set aside do not pay for.
   */
  private weighKept(kept: LoopSignal[], tolerated: number, index: number, step: number | undefined, waiting: CallFlag, proposal: ProposalRule | null, failed: CallFlag): Decision {
    const quiet = (): Decision => this.quiet(proposal, tolerated);
    const p = this.p;
    // a call failing again, a new error each time (failing-again.ts), speaks only alone, and only warns
    const warnOnly = failingAgainAlone(kept);
    const fused = fuse(kept, p.fusion, p.agreementBonus, p.primary);
    if (fused.confidence < p.minConfidence) return quiet();
    const noProgress = p.progress !== 'ignore' && fused.signals.some((s) => SAME_CALL_KINDS.has(s.kind) && s.progress === 'stalled');
    const onlyChanging = p.progress === 'slow' && fused.signals.every(showsProgress);
    // repetitions with new work between them (an edit before each re-run) climb `interleavedStep` rungs
    // (half a rung by default): the agent is trying things, and only a repetition that goes on many times
    // is a loop worth breaking
    // (both flags read here, before onDetect runs the caller's code)
    const repeated = repeatedCalls(this.log, flagValue(failed), fused.signals, index);
    const slow = onlyChanging || flagValue(waiting) || repeated === null || interleavedWithNewWork(this.log, repeated);
    const rungs = slow ? p.interleavedStep : noProgress ? p.noProgressStep : 1;

    const primary = fused.primary;
    const loopStart = primary.loopStart ?? index;
    const repeatCount = primary.repeatCount ?? 1;
    // Each distinct text is redacted once: the primary's pattern recurs in its signal entry. The message
    // needs no pass of its own: its only variable parts are the kind and the (redacted) pattern, and its
    // fixed words cannot complete a secret across their boundaries.
    const clean = this.redact ? memoRedact() : keep;
    const unit: CallRef[] = [];
    for (const i of primary.unit ?? [index]) {
      const ref = this.log.ref(i);
      if (ref !== undefined) unit.push(this.redact ? cleanRef(ref, clean) : ref);
    }
    const pattern = clean(primary.pattern);
    const chunk = primary.chunk === undefined ? undefined : clean(primary.chunk);
    const kind = clean(primary.kind);
    const progress = noProgress ? 'stalled' : (primary.progress ?? 'unknown');

    const build = (action: LoopAction): Verdict => {
      const recommended = recommend(p, action, primary.kind, fused.confidence, repeatCount);
      // before a call runs, a break blocks that call (or, repeated, stops the run)
      const consequence = proposal !== null && action === 'break' && !proposal.stop ? BLOCKED : CONSEQUENCE[action];
      const message = verdictMessage(pattern, kind, fused.confidence, loopStart, recommended, action, noProgress, consequence);
      return Object.freeze({
        kind: primary.kind,
        detector: primary.detector,
        pattern,
        confidence: fused.confidence,
        loopStart,
        unit: Object.freeze(unit),
        repeatCount,
        action,
        recommended,
        detectionCount: this.count + 1,
        message,
        session: this.session,
        index,
        ...(step === undefined ? {} : { step }),
        progress,
        signals: Object.freeze(fused.signals.map((s) => signalData(s, clean))),
        ...(chunk === undefined ? {} : { chunk }),
      });
    };

    // the loop's key: the repeated call's signature (a climb left by a cooldown resumes on the same loop)
    const key = ladderKey(this.log.signatureLow(index));
    // peeked without making the ladder: a proposal (rolled back) must leave the session as it was
    const climbed = this.climbed === null ? (this.p.ladder[0] as LoopAction) : this.climbed.peek(key, loopStart);
    // a call waiting on a person (not authorized) or on the world (a paced poll) is asked about, not broken
    const asked = climbed === 'break' && this.screen?.waitsOnOthers(index, primary.unit) === true ? 'ask' : climbed;
    // a call made in the same model turn as the latest verdict's call was decided before the model could read
    // that verdict (parallel calls: turns.ts): it is warned about at most; a break waits for a later turn
    // a look at the state (a file read, a status query) right after new work is checking that work: not broken
    const unread = asked === 'break' && (this.unreadVerdict(index) || this.screen?.looksAtNewWork(index, loopStart) === true) ? 'warn' : asked;
    // a cycle with no outcome known: a few turns of it are not evidence enough to break (unknown-outcomes.ts);
    // a turn the harness rejected (nothing ran): the harness corrects it, warned about (turn-rejection.ts)
    const rung = warnOnly || (unread === 'break' && ((p.progress !== 'ignore' && cycleWithoutOutcomes(primary, fused.signals)) || this.screen?.rejectedTurn(index, primary.unit ?? [index]) === true)) ? 'warn' : unread;
    let verdict = build(proposal === null ? rung : proposedAction(rung, proposal));
    if (p.onDetect !== undefined) {
      const override: unknown = p.onDetect(verdict);
      if (override === null) return quiet();
      if (override !== undefined) {
        if (typeof override !== 'string' || !ACTIONS.has(override)) {
          throw new DetectorError('policy.onDetect', `policy.onDetect must return "warn", "ask", "break", null or nothing, returned ${String(override)}`);
        }
        verdict = build(override as LoopAction);
      }
    }
    if (proposal === null) {
      if (warnOnly) this.climbed?.quietCall();
      else this.ladder.climb(rungs, key, loopStart, index);
      this.count++;
    }
    return { verdict, tolerated };
  }

  /** Whether the latest verdict was given on another call of the same model turn as the call at `index`. */
  private unreadVerdict(index: number): boolean {
    const at = this.climbed?.lastVerdictAt();
    return at !== undefined && at !== index && this.screen !== null && this.screen.sameTurn(at, index);
  }

  /** The signals with `kindWeights` applied (weighSignal), the kinds weighing 0 left out. */
  private weighted(signals: readonly LoopSignal[]): readonly LoopSignal[] {
    const w = this.p.kindWeights;
    if (w === NO_WEIGHTS) return signals;
    const out: LoopSignal[] = [];
    for (const s of signals) {
      const weighed = weighSignal(s, w);
      if (weighed !== null) out.push(weighed);
    }
    return out;
  }

  /** Puts the ladder back on its first rung, nothing dormant (a fresh start); the count of verdicts stays. */
  freshStart(): void {
    this.climbed = null;
  }

  /** Starts the session's ladder and count again. */
  reset(): void {
    this.climbed = null;
    this.count = 0;
  }

  /** Writes the ladder and count, for a snapshot. */
  save(w: ByteWriter): void {
    (this.climbed ?? FIRST_RUNG).save(w);
    w.f64(this.count);
  }

  /** What save() writes for a policy that has decided nothing yet (a session that makes its policy on first use). */
  static saveUnmade(w: ByteWriter): void {
    FIRST_RUNG.save(w);
    w.f64(0);
  }

  /** Reads what save() wrote. */
  load(r: ByteReader): void {
    const ladder = new Ladder(this.p.ladder, this.p.cooldown);
    ladder.load(r);
    // a ladder no verdict moved is not kept, as in a session that never had one
    this.climbed = ladder.isFirstRung() ? null : ladder;
    this.count = r.f64();
  }
}
