/**
 * What a signal is evidence of, read by the host before the policy weighs it. The detectors say what
 * repeats; the host knows what the calls were (their turns, what their answers mean), and a warning, like
 * a break, needs evidence that the session is not progressing. Each signal is:
 *
 * - kept as it is;
 * - dropped, when it is no evidence of a loop at all: its repetitions are one model turn (turns.ts), or
 *   the result it says keeps coming back is an acknowledgement, not an answer; the same error, when each
 *   failure was the person declining the call or a different call failing without a word (a search that
 *   found nothing: see failure-kinds.ts), is no dead end;
 * - or marked as progress, which the policy's progress mode then weighs (`suppress` sets it aside, `slow`
 *   climbs half a rung, `ignore` keeps it): similar calls whose "very same answer" is an acknowledgement
 *   ("The file <path> has been updated successfully." after each of several edits) show no stall; and a
 *   call repeated with a distinct successful change of the workspace between each repetition and the next
 *   (a check re-run after each new edit: see workspace-changes.ts) is progress, whatever it answers. The
 *   same edit made again, an edit that failed, or only reads between, are not;
 * - or marked as stalled: the same call failing at each repetition with a new error text each time, and
 *   nothing changed in the workspace between, made no progress (nothing was done that could change it).
 *
 * Shared by both engines: it reads only what the host keeps (the call log and the calls' facts), never the
 * detectors' rings (in a batch those may already hold later calls); through narrow interfaces (PolicyLog,
 * ScreenFacts), so `loopwatch calibrate` replays recorded calls through this very screen.
 */
import type { LoopSignal, Progress } from '../types.js';
import { CallFact } from './call-facts.js';
import type { LaterFacts } from './checked-call-clean.js';
import { anotherCallAfterOneFailing } from './another-call-after-one-failing.js';
import { anotherEditAfterFailed } from './edit-after-failed-edits.js';
import { newCallProposed, runsBeforeNewCall } from './new-call-proposed.js';
import type { PolicyLog } from './policy-log.js';
import type { ScreenFacts } from './screen-facts.js';
import { SignalCopy } from './signal-copy.js';
import { type TurnThresholds, repeatsOverTurns, repetitionsOf } from './turns.js';
import { fewOwnResends, writeLookedAt } from './write-looked-at.js';

/**
 * A copy of a signal with another progress (its pattern, when made on demand, still made on demand), of
 * any signal: one the policy weighed (`kindWeights`) too.
 */
export function withProgress(s: LoopSignal, progress: Progress): LoopSignal {
  return new SignalCopy(s, s.confidence, progress, true);
}

/**
 * Kinds whose repetitions can have work between them (exact repeats are back to back; a cycle's unit holds
 * its own edits, the same each time).
 */
const SPACED_KINDS: ReadonlySet<string> = new Set(['frequency', 'state_repeat', 'dead_end', 'result_repeat', 'semantic', 'similar_args']);

/**
 * Kinds that say the same call repeats (not its error, not similar calls): at a proposal of a check after new
 * work, weighed on the runs that ran (checksNewChange).
 */
const CHECK_KINDS: ReadonlySet<string> = new Set(['frequency', 'state_repeat']);
/** Kinds of similar calls whose signal at a proposal identical to an earlier run is weighed as CHECK_KINDS' (checksNewChange). */
const RERUN_FUZZY_KINDS: ReadonlySet<string> = new Set(['semantic', 'similar_args']);

/**
 * Failures of one call, each with a new error and nothing changed between, that make it stalled: again and
 * again (three different failures may be a build finding one problem after another).
 */
export const FAILED_AGAIN = 4;

/**
 * Polls of one wait (repetitions whose every run said the work is still under way: CallFact.WAITING) up to
 * which the repeat is a wait, not a loop: past it, the repeat is evidence as any other. The six sets' Codex
 * sessions poll one running process at most 24 times (holdout4: a Playwright run), 9 in the devset, every
 * such wait ending (the process exited, or the session); 30 leaves that room.
 */
export const POLL_LIMIT = 30;

/**
 * Time one wait's polls may have waited (the sum of their `yield_time_ms`: process-poll.ts's waitedMs), in
 * milliseconds, up to which the repeat is a wait: past it, evidence as any other. The longest wait in the
 * sets' Codex headers (`Wall time`, summed over a process's polls) that ended is 461 s (holdout4, a GPU eval
 * job), 396 s the longest still running when its session ended (holdout3); 15 minutes is about twice that.
 */
export const WAIT_LIMIT_MS = 15 * 60_000;

/**
 * Gaps between runs of a check that passed or a report of the state (a status query, a listing: {@link
 * reportsState}) holding nothing but acknowledgements (a plan or to-do list updated) or nothing at all, up to
 * which a repeat whose other gaps each hold a new change is still a look at the work (`git status` after a
 * phase's edits, then again after only an `update_plan`; n8n's executions listed twice at once, then after
 * each workflow update): the state looked at twice with nothing between, once. A look repeated again and
 * again with nothing new between, or with other calls (reads, runs) but no change between, is weighed as any
 * repeat.
 */
export const LOOK_AGAIN = 1;

/** Calls before the first repetition in which an edit counts as made before (at least; or the loop's span). */
export const CHANGE_LOOKBACK = 20;

/**
 * Whether a check's outcome (CallFact bits) is a report of the state that did not fail (a prerequisite or
 * status script: status-query.ts; a generator listing the files it wrote: saved-files.ts): it reports the
 * state the work between its runs changed, so, as a check that passed, it needs only a new change in each
 * gap; not a behaviour the edits were to change.
 */
export function reportsState(outcome: number): boolean {
  return (outcome & (CallFact.STATUS | CallFact.FAILED)) === CallFact.STATUS;
}

/** The host's reading of a session's signals. */
export class EvidenceScreen {
  constructor(
    private readonly log: PolicyLog,
    private readonly facts: ScreenFacts,
    private readonly turns: TurnThresholds,
    /** CLEAN and STATUS of the call being checked, for a session that leaves them out of its facts (checksOnly); else null. */
    private readonly later: LaterFacts | null = null,
  ) {}

  /** The signal as evidence of a loop at call `index`: itself, a copy marked as progress, or null (none). */
  screen(s: LoopSignal, index: number): LoopSignal | null {
    if (this.setsAside(s, index)) return null;
    if (s.detector !== s.kind) return s;
    if (s.kind !== 'result_repeat' && s.fuzzy === true && s.progress === 'stalled' && this.anyHas(s.unit ?? [index], CallFact.ACK)) {
      // the same acknowledgement is no repeated answer: similar calls no stall (results repeating: setsAside)
      return withProgress(s, 'mixed');
    }
    if (s.progress === 'changing' && s.fuzzy !== true && this.failedUnchanged(repetitionsOf(this.log, s, index))) return withProgress(s, 'stalled');
    if (SPACED_KINDS.has(s.kind) && s.progress !== 'changing' && this.changedBetween(this.runsOf(s, index), (s.loopStart ?? index) < this.facts.oldest)) {
      return withProgress(s, 'changing');
    }
    return s;
  }

  /**
   * The repetitions of `s` at call `index` whose gaps are weighed (changedBetween): for similar calls at a
   * proposal of a new call, the calls that ran alone (new-call-proposed.ts: the gap up to the proposal is
   * closed by no run yet); else all of them.
   */
  private runsOf(s: LoopSignal, index: number): readonly number[] {
    const reps = repetitionsOf(this.log, s, index);
    return s.fuzzy === true ? runsBeforeNewCall(this.log, this.facts, reps, index) : reps;
  }

  /**
   * Whether {@link screen} returns null for `s` at call `index` (no evidence of a loop): the checks that set a
   * signal aside, alone. Whatever else the screen makes of a signal kept, it only marks its progress: for a
   * signal of similar calls already marked as progress (`changing`, `mixed`), which `suppress` tolerates
   * whatever the mark, the policy asks this alone (verdict-policy.ts's weigh).
   */
  setsAside(s: LoopSignal, index: number): boolean {
    if (!repeatsOverTurns(this.log, this.facts, this.turns, s, index)) return true;
    if (s.detector !== s.kind) return false;
    if (this.waitWithinBounds(repetitionsOf(this.log, s, index))) return true;
    if (s.fuzzy === true && !this.ranEnough(s, index)) return true;
    if (this.checksNewChange(s, index)) return true;
    // the same write sent after the read its refusals asked for (write-looked-at.ts)
    if (s.kind === 'frequency' && fewOwnResends(this.facts, repetitionsOf(this.log, s, index), index, this.turns.get('frequency') ?? 0)) return true;
    if (s.kind === 'dead_end' && (this.notTheAgentsWall(s.unit ?? [index], -1) || this.fewOwnFailures(s.unit ?? [index]) || this.eachSlipAnswered(s.unit ?? [index]) || this.formSlipsAnswered(s.unit ?? [index]) || this.eachRefusalANewWrite(s.unit ?? [index]) || this.refusedThenAnotherWay(s.unit ?? [index]))) return true;
    if (s.fuzzy === true && (this.ranNotTheAgentsWall(s.unit ?? [index], index) || this.eachRefusalANewWrite(s.unit ?? [index]) || this.refusedThenAnotherWay(s.unit ?? [index]))) return true;
    // the same acknowledgement coming back is no repeated answer
    return s.kind === 'result_repeat' && this.anyHas(s.unit ?? [index], CallFact.ACK);
  }

  /**
   * Whether every gap between two repetitions of a check (ascending call indices, those still kept;
   * `hidden`: earlier ones are no longer kept, the calls kept before the first count as a gap too) holds a
   * successful change of the workspace whose call was not made earlier (since CHANGE_LOOKBACK calls, or the
   * loop's span, before the first repetition): the state the check sees changed each time. A check that
   * passed at its latest run (it may have failed before: then the work fixed it) needs that alone; one that
   * keeps failing (the same build error) needs each gap to change a file no earlier change changed (work
   * spreading over the code, as when one build is fixed file by file), not the same file edited again and
   * again (an attempt at one fix, retried); one that only describes a behaviour (a reproduction script
   * printing the same thing after each edit) is not confirmed by the work between its runs; one that reports
   * the state (a status or prerequisite script: {@link reportsState}) counts as one that passed. A run that
   * failed on the infrastructure (stopped at the tool's time limit) is no repetition of the check: the run
   * after it finishes it.
   */
  private changedBetween(all: readonly number[], hidden: boolean): boolean {
    const oldest = this.facts.oldest;
    // a run stopped on the infrastructure (a build cut at the tool's time limit) checked nothing: the run
    // after it goes on with it, and the gaps either side are one
    const reps = this.ranToAnEnd(all);
    // the calls kept before the first repetition kept are a gap only when there are some, and when no gap
    // between repetitions is kept (the rest of that gap is no longer known: its kept part alone is no answer)
    const before = hidden && reps.length === 1 && reps[0] !== undefined && reps[0] > oldest;
    if (reps.length < (before ? 1 : 2)) return false;
    let latest = reps.length - 1;
    if (latest > 0 && (this.facts.of(reps[latest] as number) & CallFact.PROPOSED) !== 0) latest--;
    const outcome = this.outcomeOf(reps[latest] as number);
    const passed = (outcome & CallFact.CLEAN) !== 0 || reportsState(outcome);
    // a check that neither passed nor failed describes a behaviour (a reproduction script's output): the
    // same description after each edit says the edits did not change it
    if (!passed && (outcome & CallFact.FAILED) === 0) return false;
    const last = reps[reps.length - 1] as number;
    const first = reps[0] as number;
    const from = Math.max(oldest, first - Math.max(CHANGE_LOOKBACK, last - first));
    // a failing write repeated is no check of the work between (an edit failing again after other edits)
    if (!passed) for (const i of reps) if ((this.facts.of(i) & CallFact.WRITE) !== 0) return false;
    // the files changed so far: since `from`, before the first repetition, then gap by gap
    const files = passed ? null : new Set<number>();
    // a check that passed or a report of the state may be looked at again with nothing between but plan
    // updates (LOOK_AGAIN gaps: the state looked at twice at once, after the work was done), as long as some
    // gap changed it
    let idle = passed ? LOOK_AGAIN : 0;
    // a report of the state (a look at the world: a CI run, the processes, a local server) or a check that passed
    // (a look whose answer is empty: `ps -C python3` with none running) looked at again after the agent waited (a
    // gap holding a wait: `sleep 30`, an empty `write_stdin`) looks at a state time moved on, up to POLL_LIMIT such gaps
    let waits = passed ? POLL_LIMIT : 0;
    let worked = 0;
    // (with a gap before the first repetition kept, none: the calls before that gap are no longer kept, and
    // the gap's own changes are what it is judged on)
    if (files !== null && !before) for (let c = from; c < first; c++) if ((this.facts.of(c) & CallFact.CHANGED) !== 0) files.add(this.facts.targetOf(c));
    for (let k = before ? 0 : 1; k < reps.length; k++) {
      const a = k === 0 ? oldest - 1 : (reps[k - 1] as number);
      let changed = false;
      const gap: number[] = [];
      for (let c = a + 1; c < (reps[k] as number); c++) {
        if ((this.facts.of(c) & CallFact.CHANGED) === 0) continue;
        const file = this.facts.targetOf(c);
        if (files !== null) gap.push(file);
        if (changed || !this.novel(c, from)) continue;
        changed = files === null || (file !== 0 && !files.has(file));
      }
      if (!changed && waits > 0 && this.waitedIn(a + 1, reps[k] as number)) {
        waits--;
        worked++;
        continue;
      }
      if (!changed) {
        if (idle === 0 || !this.onlyAcknowledged(a + 1, reps[k] as number)) return false;
        idle--;
        continue;
      }
      worked++;
      if (files !== null) for (const f of gap) files.add(f);
    }
    return worked > 0;
  }

  /**
   * Whether every call from `from` up to `to` (excluded) was answered with an acknowledgement alone (a plan
   * or to-do list updated: CallFact.ACK, neither a failure nor a write); true for none at all.
   */
  private onlyAcknowledged(from: number, to: number): boolean {
    for (let c = from; c < to; c++) if ((this.facts.of(c) & (CallFact.ACK | CallFact.FAILED | CallFact.WRITE)) !== CallFact.ACK) return false;
    return true;
  }

  /**
   * Whether a call from `from` up to `to` (excluded) only waited, and ran: `sleep 30`, an empty `write_stdin`
   * on a running process (CallFact.PACED; a wait proposed has not waited yet).
   */
  private waitedIn(from: number, to: number): boolean {
    for (let c = from; c < to; c++) if ((this.facts.of(c) & (CallFact.PACED | CallFact.PROPOSED)) === CallFact.PACED) return true;
    return false;
  }

  /** `reps` without the runs that failed on the infrastructure (CallFact.INFRA: a time limit, a rate limit); `reps` itself when none did. */
  private ranToAnEnd(reps: readonly number[]): readonly number[] {
    let cut = 0;
    for (const i of reps) if ((this.facts.of(i) & CallFact.INFRA) !== 0) cut++;
    return cut === 0 ? reps : reps.filter((i) => (this.facts.of(i) & CallFact.INFRA) === 0);
  }

  /**
   * Whether the call at `index` reports the state (its latest run, for a proposal: {@link reportsState}) and a
   * successful change of the workspace not made before (since CHANGE_LOOKBACK calls before `loopStart`) came
   * after its previous run: the look is at new work (a file read again after it was rewritten). Such a call is
   * not broken, whatever its earlier runs showed: the plan moved on since.
   */
  looksAtNewWork(index: number, loopStart: number): boolean {
    const last = this.lastRun(index);
    if (last === undefined) return false;
    if (!reportsState((this.facts.of(index) & CallFact.PROPOSED) !== 0 ? this.facts.of(last) : this.outcomeOf(index))) return false;
    const from = Math.max(this.facts.oldest, Math.min(loopStart, last) - CHANGE_LOOKBACK);
    for (let c = last + 1; c < index; c++) if ((this.facts.of(c) & CallFact.CHANGED) !== 0 && this.novel(c, from)) return true;
    return false;
  }

  /**
   * The facts of the call at `index` a verdict weighs, with CLEAN and STATUS: a session that checks only after
   * the fact (checksOnly) leaves those out of its recorded facts and reads them at the screen of the call being
   * checked, the only call asked for them (`later`; it throws for another).
   */
  private outcomeOf(index: number): number {
    const f = this.facts.of(index);
    return this.later === null ? f : f | this.later.of(this.log, index);
  }

  /** Whether the call at `c` was not made in the calls from `from`. */
  private novel(c: number, from: number): boolean {
    const sig = this.log.signatureLow(c);
    if (sig === undefined) return false;
    for (let j = from; j < c; j++) if (this.log.signatureLow(j) === sig) return false;
    return true;
  }

  /**
   * Whether a signal of similar calls made at a proposal has its detector's threshold of similar calls that
   * ran: the proposed call's outcome is not known, so its likeness to stalled calls is no stall of its own
   * (a third edit of a file, proposed after two failed, is most often the one that works). Similar calls that
   * failed are a stall of failures, kept, unless they are failed edits and the proposal is another edit
   * (edit-after-failed-edits.ts), or the failures of one call and the proposal is another call
   * (another-call-after-one-failing.ts): then only the similar calls that did not fail count; or the proposal
   * is a call none of them was (new-call-proposed.ts): then they count as runs, failed or not, and must reach
   * the threshold by themselves.
   */
  private ranEnough(s: LoopSignal, index: number): boolean {
    if ((this.facts.of(index) & CallFact.PROPOSED) === 0) return true;
    const need = this.turns.get(s.kind);
    if (need === undefined || s.unit === undefined) return true;
    let ran = 0;
    let another: boolean | undefined;
    // a new call proposed (none of the similar calls that ran): their failures count as runs, and the loop must
    // stand on those runs alone (new-call-proposed.ts)
    const fresh = newCallProposed(this.log, this.facts, s.unit, index);
    for (const i of s.unit) {
      if (i === index) continue;
      if ((this.facts.of(i) & CallFact.FAILED) !== 0) {
        // similar calls failing are the dead end's evidence, kept: a stall of failures is a stall; not another
        // edit after failed ones, nor another call after one call's failures (those weigh on their outcome)
        if (!(another ??= anotherEditAfterFailed(this.log, this.facts, s.unit, index) || anotherCallAfterOneFailing(this.log, this.facts, s.unit, index))) {
          if (!fresh) return true;
          ran++;
        }
        continue;
      }
      ran++;
    }
    return ran >= need;
  }

  /**
   * Whether a signal of the same call repeated, at a proposal of that call, has fewer runs than its detector's
   * threshold and the call is a check (its latest run passed, failed or reported the state: a status query, a
   * file printed; and it changes nothing itself) with a successful change not made before (since
   * CHANGE_LOOKBACK calls before its latest run) after that run: the check is proposed to test new work, and its
   * outcome, the evidence, is not known yet. The runs that ran are
   * weighed alone, as a similar call proposed is (ranEnough); the call is screened again once recorded. The
   * same error again (a dead end) is not such a signal: a stall of failures is a stall. A signal of similar
   * calls (RERUN_FUZZY_KINDS) is one too when the proposal is the very call run before (its latest run found
   * by signature): `aws s3api put-bucket-cors --cors-configuration file://cors.json` proposed again after
   * the agent rewrote the file it names is the same check of new work, not a paraphrase.
   */
  private checksNewChange(s: LoopSignal, index: number): boolean {
    if ((this.facts.of(index) & CallFact.PROPOSED) === 0 || !(s.fuzzy === true ? RERUN_FUZZY_KINDS.has(s.kind) : CHECK_KINDS.has(s.kind))) return false;
    const need = this.turns.get(s.kind);
    const last = this.lastRun(index);
    if (need === undefined || last === undefined) return false;
    const f = this.facts.of(last);
    if ((f & (CallFact.CLEAN | CallFact.FAILED | CallFact.STATUS)) === 0 || (f & (CallFact.WRITE | CallFact.CHANGED)) !== 0) return false;
    let ran = 0;
    for (const i of repetitionsOf(this.log, s, index)) if (i !== index) ran++;
    if (ran >= need) return false;
    const from = Math.max(this.facts.oldest, last - CHANGE_LOOKBACK);
    for (let c = last + 1; c < index; c++) if ((this.facts.of(c) & CallFact.CHANGED) !== 0 && this.novel(c, from)) return true;
    return false;
  }

  /**
   * Whether the same call failed at each of its repetitions (at least FAILED_AGAIN kept, not on the
   * infrastructure; the latest, a proposal, not yet run) with nothing changed in the workspace from the first to the last: a new error text each time
   * is then no progress, since nothing was done that could have changed the outcome.
   */
  private failedUnchanged(reps: readonly number[]): boolean {
    let ran = 0;
    for (const i of reps) {
      const f = this.facts.of(i);
      if ((f & CallFact.PROPOSED) !== 0) continue;
      if ((f & CallFact.FAILED) === 0 || (f & (CallFact.DECLINED | CallFact.NEEDS_PERSON | CallFact.WAITING | CallFact.INFRA)) !== 0) return false;
      ran++;
    }
    if (ran < FAILED_AGAIN) return false;
    for (let c = reps[0] as number; c < (reps[reps.length - 1] as number); c++) if ((this.facts.of(c) & (CallFact.CHANGED | CallFact.WRITE)) !== 0) return false;
    return true;
  }

  /**
   * Whether a repeat is a wait within its bounds: every repetition that ran (a proposal's outcome is not
   * known yet: its latest run, a repetition too, says) was a paced poll (CallFact.PACED: an empty
   * `write_stdin` on a process still running, `sleep 30 && gh run list`, `sleep 30` alone) that changed
   * nothing, and there were at most POLL_LIMIT of them, waiting at most WAIT_LIMIT_MS in all. The same answer
   * again is then the world not done yet, not the agent stuck; a wait past the bounds is weighed as any repeat.
   * An unpaced poll (a status asked for at once, again and again) is weighed as before: warned, asked at most.
   */
  private waitWithinBounds(reps: readonly number[]): boolean {
    let polls = 0;
    let waited = 0;
    for (const i of reps) {
      const f = this.facts.of(i);
      if ((f & CallFact.PROPOSED) !== 0) continue;
      // a poll paced by the tool or the agent (an empty `write_stdin`, `sleep 30 && tail build.log`); it may show a
      // failure printed so far by what it waits on (a test failing while the run goes on): still a wait
      if ((f & (CallFact.WAITING | CallFact.PACED | CallFact.CHANGED)) !== (CallFact.WAITING | CallFact.PACED)) return false;
      polls++;
      waited += this.facts.targetOf(i);
    }
    return polls > 0 && polls <= POLL_LIMIT && waited <= WAIT_LIMIT_MS;
  }

  /**
   * Whether the calls at `a` and `b` were made in one model turn (both kept, the turn known: turns.ts): the
   * later was decided with the earlier, before the model could read a verdict given on it.
   */
  sameTurn(a: number, b: number): boolean {
    const t = this.facts.turnOf(a);
    return t !== undefined && t === this.facts.turnOf(b);
  }

  /**
   * Whether the latest run of the call at `index` (the same call, before it; within the calls kept) said
   * the work was still under way: the call proposed again polls.
   */
  waitedBefore(index: number): boolean {
    const last = this.lastRun(index);
    return last !== undefined && (this.facts.of(last) & CallFact.WAITING) !== 0;
  }

  /**
   * Whether the call at `index` (recorded) or its latest run before it waits on someone other than the
   * agent: it failed for want of a person (not authorized, login required: only a person can unblock it),
   * or it is a poll: paced by the agent (`sleep 30 && gh run list`, or `sleep 30` then the poll: see
   * pollsAfterAWait), or answered with a status field saying the world's work is still under way
   * (`"status": "in_progress"`: the model's own turn paces it, and what ends it is the world finishing, not
   * the agent trying something else; see polledBefore); or a loop whose `unit` (the calls of the loop, when
   * given) holds a wait that ran. How long to wait for the world is the person's call: the verdict then asks
   * rather than breaks.
   */
  waitsOnOthers(index: number, unit: readonly number[] = []): boolean {
    const others = CallFact.NEEDS_PERSON | CallFact.PACED;
    // a loop one of whose calls is the agent waiting (a round of `write_stdin` on a running test suite, its
    // summary printed, its errors listed: a cycle through a wait) is a poll the agent paces
    for (const i of unit) if (i !== index && (this.facts.of(i) & (CallFact.PACED | CallFact.PROPOSED)) === CallFact.PACED) return true;
    // recorded, the call itself counts (and, once the person granted access, the run before it)
    if ((this.facts.of(index) & (CallFact.PROPOSED | others | CallFact.POLLED)) > 0 && (this.facts.of(index) & CallFact.PROPOSED) === 0) return true;
    const last = this.lastRun(index);
    if (last !== undefined && (this.facts.of(last) & others) !== 0) return true;
    return this.polledBefore(index) || this.pollsAfterAWait(index, last);
  }

  /**
   * Whether the call at `index` (recorded) was a turn the harness rejected: no action it could read, so
   * nothing ran (turn-rejection.ts); proposed, whether its latest run was one, or every call of the loop's
   * `unit` that ran was (a burst of rejected turns, each of other args). The harness corrects the model
   * itself, and its own limits end a run that does not recover: such a loop is warned about, never broken.
   */
  rejectedTurn(index: number, unit: readonly number[]): boolean {
    const own = this.facts.of(index);
    if ((own & CallFact.PROPOSED) === 0) return (own & CallFact.REJECTED) !== 0;
    const last = this.lastRun(index);
    if (last !== undefined && (this.facts.of(last) & CallFact.REJECTED) !== 0) return true;
    let ran = 0;
    for (const i of unit) {
      if (i === index) continue;
      if ((this.facts.of(i) & CallFact.REJECTED) === 0) return false;
      ran++;
    }
    return ran > 0;
  }

  /**
   * Whether a run of the call at `index` before it (within the calls kept) answered with a status field
   * saying the work was still under way: the call is a poll of the world, whose answer the world changes
   * (a finished CI run polled again after the agent started another).
   */
  private polledBefore(index: number): boolean {
    const sig = this.log.signatureLow(index);
    if (sig === undefined) return false;
    for (let j = index - 1; j >= this.facts.oldest; j--) {
      if (this.log.signatureLow(j) === sig && (this.facts.of(j) & CallFact.POLLED) !== 0) return true;
    }
    return false;
  }

  /**
   * Whether the call at `index`, or its latest run `last`, came right after a call that waited (`sleep 30`
   * on its own, then the poll): the agent paces the poll in two calls rather than one.
   */
  private pollsAfterAWait(index: number, last: number | undefined): boolean {
    const waited = (c: number): boolean => c >= this.facts.oldest && (this.facts.of(c) & (CallFact.PACED | CallFact.PROPOSED)) === CallFact.PACED;
    return waited(index - 1) || (last !== undefined && waited(last - 1));
  }

  /** The latest call before `index` that is the same call, within the calls kept. */
  private lastRun(index: number): number | undefined {
    const sig = this.log.signatureLow(index);
    if (sig === undefined) return undefined;
    for (let j = index - 1; j >= this.facts.oldest; j--) if (this.log.signatureLow(j) === sig) return j;
    return undefined;
  }

  /**
   * Whether the failures of a dead end are none of the agent's wall: each declined or interrupted by the
   * person, or a different call failing without a word (searches that found nothing). The same silent call
   * failing again is left to the detectors of repeated calls.
   */
  private notTheAgentsWall(unit: readonly number[], skip: number): boolean {
    // the signatures seen: the first, then the others (a set made only for a third call)
    let first: number | undefined;
    let more: number[] | null = null;
    for (const i of unit) {
      if (i === skip) continue;
      const f = this.facts.of(i);
      if ((f & CallFact.DECLINED) !== 0) continue;
      if ((f & CallFact.SILENT) === 0) return false;
      const sig = this.log.signatureLow(i);
      if (sig === undefined || sig === first || (more !== null && more.includes(sig))) return false;
      if (first === undefined) first = sig;
      else (more ??= []).push(sig);
    }
    return true;
  }

  /**
   * Whether a dead end holds fewer of the agent's own failures than its detector's threshold: those the person
   * declined, those that failed without a word (searches or reads that found nothing, programs not there:
   * CallFact.SILENT), and writes answered by a look at their file (write-looked-at.ts), set aside. A silent failure says no error, so it is no repetition of one: different
   * probes are none (notTheAgentsWall), and the same probe again is a repeated call, which the detectors of
   * repeated calls weigh (`rg -n X` finding nothing twice, other searches between, is no wall of errors). A
   * silent failure retried at once (the call right before it the same) is the agent pushing at a wall (`go test`
   * failing in Codex's sandbox without a word, run again): such a dead end is kept.
   */
  private fewOwnFailures(unit: readonly number[]): boolean {
    const need = this.turns.get('dead_end');
    if (need === undefined) return false;
    const latest = unit[unit.length - 1] as number;
    let own = 0;
    for (const i of unit) {
      const f = this.facts.of(i);
      if ((f & (CallFact.DECLINED | CallFact.PROPOSED)) !== 0) continue;
      if ((f & CallFact.SILENT) === 0) {
        if (!writeLookedAt(this.facts, i, latest)) own++;
      } else if (i > this.facts.oldest && this.log.signatureLow(i - 1) === this.log.signatureLow(i)) return false;
    }
    return own < need;
  }

  /**
   * Whether a dead end's failures are one slip made on different files, each answered: every failure a write
   * naming its file (its target: outcome-facts.ts), no file twice, and each but the latest followed, before the
   * latest, by a successful change of its file (the same patch-format slip in a new file, fixed by the next
   * call each time). No file is stuck; a write failing again on one file stays a wall.
   */
  private eachSlipAnswered(unit: readonly number[]): boolean {
    const ran = unit.filter((i) => (this.facts.of(i) & CallFact.PROPOSED) === 0);
    if (ran.length < 2) return false;
    const latest = ran[ran.length - 1] as number;
    const files = new Set<number>();
    for (const i of ran) {
      const file = this.facts.targetOf(i);
      if ((this.facts.of(i) & (CallFact.FAILED | CallFact.WRITE)) !== (CallFact.FAILED | CallFact.WRITE) || file === 0 || files.has(file)) return false;
      files.add(file);
      if (i !== latest && !this.changedLater(file, i, latest)) return false;
    }
    return true;
  }

  /**
   * Whether a dead end's failures are writes the tool refused for their form (a patch it could not parse:
   * CallFact.INVALID_ARGS on a WRITE, invalid-args.ts), answered by writes that applied: from the first to the
   * latest, at least as many successful changes of the workspace as refusals before the latest, and each file
   * refused (its target) changed successfully after its first refusal, before the latest (the file the latest
   * alone names is not yet answered). The agent writes patches that apply and slips on the patch language now
   * and then (a line without `+` in an `Add File`, a hunk without `@@`), and each slip is made good. Refusals
   * that outnumber the writes that applied, or a file never written after its refusals, stay a wall.
   */
  private formSlipsAnswered(unit: readonly number[]): boolean {
    const refused = CallFact.FAILED | CallFact.WRITE | CallFact.INVALID_ARGS;
    const ran: number[] = [];
    for (const i of unit) {
      const f = this.facts.of(i);
      if ((f & CallFact.PROPOSED) !== 0) continue;
      if ((f & refused) !== refused || this.facts.targetOf(i) === 0) return false;
      ran.push(i);
    }
    if (ran.length < 2) return false;
    const first = ran[0] as number;
    const latest = ran[ran.length - 1] as number;
    let applied = 0;
    for (let c = Math.max(first + 1, this.facts.oldest); c < latest; c++) if ((this.facts.of(c) & CallFact.CHANGED) !== 0) applied++;
    if (applied < ran.length - 1) return false;
    // each file refused before the latest, from its first refusal on (the ascending unit names it first there)
    const seen = new Set<number>();
    for (const i of ran) {
      const file = this.facts.targetOf(i);
      if (i === latest || seen.has(file)) continue;
      seen.add(file);
      if (!this.changedLater(file, i, latest)) return false;
    }
    return true;
  }

  /**
   * Whether a dead end's failures are writes the tool refused for their args (CallFact.INVALID_ARGS on a WRITE:
   * a patch whose form did not parse, an edit whose old text is not in the file), each a different write (no
   * two of them the same call), while the file they name changes: some write of a refused file applied after
   * the first refusal, before the latest. Codex's `apply_patch` answers "Failed to find expected lines" when a
   * patch's context is not in the file; the agent sends the part that does match, which applies, then the rest
   * again in another shape (other context, a smaller hunk): each a new attempt on a file its work is changing,
   * not one wall hit again, whether the dead end's detector or a detector of similar calls (the patches alike)
   * saw them. The same patch sent again after the same refusal (the file read between or not) is a wall, and
   * so are refusals that no write of their file answers (the agent cannot write the patch: refused, looked at,
   * refused again, nothing applied).
   */
  private eachRefusalANewWrite(unit: readonly number[]): boolean {
    const refused = CallFact.FAILED | CallFact.WRITE | CallFact.INVALID_ARGS;
    const sent: number[] = [];
    const ran: number[] = [];
    for (const i of unit) {
      const f = this.facts.of(i);
      // a write proposed (its outcome not known yet) is weighed as a write sent: the same one again is no new one
      if ((f & CallFact.PROPOSED) !== 0) {
        if ((f & CallFact.WRITE) === 0) return false;
      } else if ((f & refused) !== refused || this.facts.targetOf(i) === 0) {
        return false;
      } else {
        ran.push(i);
      }
      const sig = this.log.signatureLow(i);
      if (sig === undefined || sent.includes(sig)) return false;
      sent.push(sig);
    }
    if (ran.length < 2) return false;
    const latest = ran[ran.length - 1] as number;
    for (const i of ran) if (i !== latest && this.changedLater(this.facts.targetOf(i), i, latest)) return true;
    return false;
  }

  /**
   * Whether a dead end's failures (or a signal of similar calls' runs) are refusals for want of a person
   * (CallFact.NEEDS_PERSON: the person's permission settings refused the call and no prompt could grant it,
   * Claude Code's "Claude requested permissions to write to <file>, but you haven't granted it yet.", "Permission
   * to use WebFetch has been auto-denied (prompts unavailable).", "This command requires approval"; or access
   * only a person can give), each answered by the agent trying another way: no refused call sent again at once
   * (the call right before it the same), and no call sent as often as the dead end's threshold (a call proposed,
   * its outcome not known yet, counts as sent). The agent whose edit was refused writes the file with a script,
   * then with `sed`, and, those refused too, sends the edit once more; the agent whose fetch of one shop's page
   * was refused fetches another shop's. The same refused call again at once (a write refused, sent again
   * unchanged), or again and again between other tries (quiet5's `mkdir` in don't-ask mode), stays a wall:
   * asked about, never broken (waitsOnOthers). Cancelled calls beside a refusal ("Sibling tool call errored":
   * CallFact.DECLINED) are none of the agent's tries.
   */
  private refusedThenAnotherWay(unit: readonly number[]): boolean {
    const need = this.turns.get('dead_end');
    if (need === undefined) return false;
    const sent: number[] = [];
    let refused = 0;
    for (const i of unit) {
      const f = this.facts.of(i);
      if ((f & CallFact.PROPOSED) === 0) {
        if ((f & CallFact.DECLINED) !== 0) continue;
        if ((f & (CallFact.FAILED | CallFact.NEEDS_PERSON)) !== (CallFact.FAILED | CallFact.NEEDS_PERSON)) return false;
        refused++;
      }
      const sig = this.log.signatureLow(i);
      if (sig === undefined || (i > this.facts.oldest && this.log.signatureLow(i - 1) === sig)) return false;
      sent.push(sig);
    }
    if (refused < 2) return false;
    for (const sig of sent) {
      let n = 0;
      for (const t of sent) if (t === sig) n++;
      if (n >= need) return false;
    }
    return true;
  }

  /** Whether a call after `from` and before `to` changed the file `file` (its target) and succeeded. */
  private changedLater(file: number, from: number, to: number): boolean {
    for (let c = from + 1; c < to; c++) if ((this.facts.of(c) & CallFact.CHANGED) !== 0 && this.facts.targetOf(c) === file) return true;
    return false;
  }

  /**
   * Whether similar calls (a fuzzy signal's unit) that ran failed in ways that are none of the agent's wall
   * (see notTheAgentsWall): different probes finding nothing (`ls .eslintrc*`, `ls .prettierrc*`), edits the
   * person declined. A proposal in the unit is left out (its outcome is not known yet).
   */
  private ranNotTheAgentsWall(unit: readonly number[], index: number): boolean {
    const skip = (this.facts.of(index) & CallFact.PROPOSED) !== 0 ? index : -1;
    let ran = 0;
    for (const i of unit) if (i !== skip) ran++;
    return ran > 0 && this.notTheAgentsWall(unit, skip);
  }

  private anyHas(calls: readonly number[], fact: number): boolean {
    for (const i of calls) if ((this.facts.of(i) & fact) !== 0) return true;
    return false;
  }
}
