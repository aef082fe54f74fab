/**
 * Similar arguments: the same tool called with nearly the same arguments (`foo`, `fo0`, `f00`): at least
 * `threshold` calls (the current one included) among the last `window` + 1 whose args have structural
 * similarity >= `similarity` with the current call's, at least one of them a different call (identical
 * repeats are the exact-repeat and frequency detectors' business). Confidence
 * `0.5 + 0.1 * (count - threshold)`.
 *
 * What it keeps of a call is a bounded summary of its args (text/args-summary.ts, at most
 * SUMMARY_MAX_BYTES), made when the call is recorded (or, for args the WebAssembly pipeline encodes from
 * objects, in that same walk: wasm/args-summary-mirror.ts) and compared as the args were
 * (text/summary-similarity.ts): a session's memory does not grow with the size of its calls' args.
 *
 * With `onlyWhenFailing` (the policy suppresses progress), the comparison is skipped when the current call
 * succeeded with an empty result or a brief acknowledgement that does not say "nothing found", or with a
 * real answer no earlier call of the tool got: such a fuzzy signal could never show a stall, so the policy
 * would set it aside anyway; skipping it saves the edit distances.
 */
import type { SimilarArgsOptions } from '../options/detector-options.js';
import { summarizeArgs } from '../text/args-summary.js';
import { summarySimilarityAtLeast } from '../text/summary-similarity.js';
import { SummaryRing } from '../state/summary-ring.js';
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';
import { type HistoryReader, OutcomeFlag, Ring } from '../state/call-history.js';
import type { LoopSignal } from '../types.js';
import { type DetectorContext, clampConfidence, withPattern } from './context.js';
import type { Detector, ObservedCall } from './detector.js';
import { repeatProgress } from './progress.js';
import { snapshotArgs } from './snapshot-args.js';
import type { CallLog } from '../state/call-log.js';
import type { Rewindable } from '../state/rewindable.js';

/** Whether a success with a real answer is compared only after an earlier same answer (off only in tests). */
let answerGate = true;
/** Whether comparisons that cannot give a signal are skipped unread (off only in tests). */
let comparePrefilter = true;

/**
 * Turns the answered-before gate off (`false`) or back on, to test that it never changes a verdict.
 * @internal For tests.
 */
export function setAnswerGate(on: boolean): void {
  answerGate = on;
}

/**
 * Turns the comparison prefilter (`candidates`, and stopping once those left cannot make a signal) off (`false`) or back on, to test that it never
 * changes a verdict.
 * @internal For tests.
 */
export function setComparePrefilter(on: boolean): void {
  comparePrefilter = on;
}

/** Detects retries of one tool with slightly varied arguments, from its own summaries of their args. */
export class SimilarArgsDetector implements Detector, Rewindable {
  /** The detector's name (a getter: a field is 8 B a session). */
  get name(): 'similar_args' {
    return 'similar_args';
  }
  /** The summaries of the newest `window + 1` calls' args (masked when volatile text is masked). */
  private readonly ring: SummaryRing;
  private n = 0;
  /** The context's rings and log, kept apart (a context object made for this detector alone would be 40 B a session). */
  private readonly history: HistoryReader;
  private readonly log: CallLog;

  /** `shared`: the summary table in a block of the thread's chunks, given back by {@link dropWords}. */
  constructor(
    ctx: DetectorContext & { readonly log: CallLog },
    private readonly o: SimilarArgsOptions,
    private readonly transform: ((s: string) => string) | null,
    private readonly onlyWhenFailing: boolean,
    shared = false,
  ) {
    this.history = ctx.history;
    this.log = ctx.log;
    this.ring = new SummaryRing(o.window + 1, shared);
  }

  /**
   * Gives the summary table's shared block and its summaries' blocks back to the thread, uncopied (a
   * detector made with `shared`, disposed: nothing reads it again); once.
   */
  dropWords(): void {
    this.ring.dropTable();
  }

  /** Summarises the call's args (read from the log, as compared) as call `n`'s. */
  record(_call: ObservedCall): void {
    this.keep(this.n, this.log.argsOf(this.n));
    this.n++;
  }

  /**
   * Takes call `n`'s summary as made already, in the module encoder's walk of its args
   * (wasm/args-summary-mirror.ts): the `length` bytes at `at` of `bytes`, those record() would make.
   */
  recordSummary(bytes: Uint8Array, at: number, length: number): void {
    this.ring.putFrom(this.n, bytes, at, length);
    this.n++;
  }

  /** Keeps the summary of args as compared (normalised) as call `index`'s, masked when masking. */
  private keep(index: number, args: unknown): void {
    this.ring.put(index, summarizeArgs(this.transform === null ? args : snapshotArgs(args, this.transform)));
  }

  check(): LoopSignal | null {
    const h = this.history;
    const last = this.n - 1;
    if (last < 0) return null;
    const floor = Math.max(0, last - this.o.window, h.oldest);
    if (this.onlyWhenFailing) {
      const f = h.flagsOf(last);
      // a stall of similar calls: failures, results saying nothing was found, or the same real answer
      const failing = (f & OutcomeFlag.KNOWN) === 0 || (f & (OutcomeFlag.ERROR | OutcomeFlag.INFRA)) === OutcomeFlag.ERROR || (f & OutcomeFlag.NOTHING) !== 0;
      const answer = (f & (OutcomeFlag.KNOWN | OutcomeFlag.ERROR | OutcomeFlag.BRIEF | OutcomeFlag.EMPTY)) === OutcomeFlag.KNOWN;
      if (!failing && !answer) return null;
      // a real answer stalls similar calls only when an earlier call of the tool got the very same one
      if (!failing && answerGate && !this.answeredBefore(floor, last)) return null;
    }
    const ring = this.ring;
    if (!ring.has(last)) return null;
    // the calls a comparison can find similar (see candidates); without the prefilter every one is compared
    let left = comparePrefilter ? this.candidates(floor, last) : last - floor;
    if (left < 0) return null;
    const bytes = ring.bytesOf(last);
    const cur = ring.at(last);
    const min = this.o.similarity;
    const need = this.o.threshold - 1;
    const similar: number[] = [];
    for (let i = floor; i < last; i++) {
      if (!h.same(Ring.TOOL, i, last) || !ring.has(i)) continue;
      // the candidates not yet compared can no longer make `threshold` calls: no signal, whatever they say
      if (comparePrefilter && similar.length + left < need) return null;
      left--;
      // lane 1: the last call's summary stays in lane 0 when both are kept packed (state/summary-ring.ts)
      if (summarySimilarityAtLeast(ring.bytesOf(i, 1), ring.at(i), bytes, cur, min, min) >= min) similar.push(i);
    }
    const count = similar.length + 1;
    if (count < this.o.threshold || similar.every((i) => h.same(Ring.SIG, i, last))) return null;
    const unit = [...similar, last];
    const log = this.log;
    return withPattern({
      kind: 'similar_args',
      detector: this.name,
      confidence: clampConfidence(0.5 + 0.1 * (count - this.o.threshold)),
      loopStart: similar[0] as number,
      unit,
      repeatCount: count,
      progress: repeatProgress(h, unit, true),
      progressGated: true,
      fuzzy: true,
    }, () => `${log.preview(last)} is one of ${count} calls with nearly the same arguments`);
  }

  /**
   * The calls the comparisons would compare (the same tool, a summary held), or -1 when they cannot give a
   * signal at all: they must be at least `threshold - 1`, and one of them must be another call (another
   * signature): the similar calls are among them, and a signal needs that many and one that differs. No
   * summary is read, so a call of a tool its window holds too few of, or whose every earlier call of the
   * tool was this very call, costs no edit distance; check() then stops comparing as soon as those left
   * cannot make `threshold` calls.
   */
  private candidates(floor: number, last: number): number {
    const h = this.history;
    let candidates = 0;
    let other = false;
    for (let i = floor; i < last; i++) {
      if (!h.same(Ring.TOOL, i, last) || !this.ring.has(i)) continue;
      candidates++;
      if (!other && !h.same(Ring.SIG, i, last)) other = true;
    }
    return other && candidates + 1 >= this.o.threshold ? candidates : -1;
  }

  /**
   * Whether a call of the same tool in the window (from `floor`) got exactly the outcome of call `last`:
   * without one, no unit of similar calls ending at `last` can be stalled (its last two would differ), so
   * the policy would set the signal aside and the edit distances are not worth computing.
   */
  private answeredBefore(floor: number, last: number): boolean {
    const h = this.history;
    for (let i = floor; i < last; i++) {
      if (h.same(Ring.TOOL, i, last) && h.same(Ring.OUTCOME, i, last)) return true;
    }
    return false;
  }

  private undoN = -1;

  /** Remembers what the next record() changes (see Rewindable). */
  mark(): void {
    this.undoN = this.n;
  }

  /**
   * Undoes the record() made since mark(): its summary is dropped; the one it replaced (`window + 1`
   * calls older) is read by no later check, whose window starts after it.
   */
  rollback(): void {
    const n = this.undoN;
    if (n < 0) return;
    this.undoN = -1;
    this.ring.drop(n);
    this.n = n;
  }

  reset(): void {
    this.undoN = -1;
    this.n = 0;
    this.ring.reset();
  }

  /** Writes its state for a snapshot: the calls seen, and the summaries of the window's calls. */
  save(w: ByteWriter): void {
    w.f64(this.n);
    this.ring.save(w, Math.max(0, this.n - this.o.window - 1), this.n);
  }

  /**
   * Reads what save() wrote. Snapshots before format SUMMARY_SNAPSHOT_VERSION held no summaries but the
   * args of the window's calls in the call log: `oldArgs` gives them (by call index), summarised here.
   * Snapshots before format SUMMARY_FORM_SINCE hold summaries in their first form (`firstForm`), turned
   * into today's as they are read.
   */
  load(r: ByteReader, oldArgs: ((index: number) => unknown) | null = null, firstForm = false): void {
    this.reset();
    this.n = r.f64();
    if (oldArgs === null) {
      this.ring.load(r, firstForm);
      return;
    }
    for (let i = Math.max(0, this.n - this.o.window - 1); i < this.n; i++) this.keep(i, oldArgs(i));
  }
}
