/**
 * Similar arguments: the same tool called with nearly the same arguments (`foo`, `fo0`, `f00`): at least
 * `threshold` calls (the current one included) among the last `window` + 1 whose args have structural
 * similarity >= `similarity` with the current call's, at least one of them a different call (identical
 * repeats are the exact-repeat and frequency detectors' business). Confidence
 * `0.5 + 0.1 * (count - threshold)`.
 *
 * With `onlyWhenFailing` (the policy suppresses progress), the comparison is skipped when the current call
 * succeeded with an empty result or a brief acknowledgement that does not say "nothing found", or with a
 * real answer no earlier call of the tool got: such a fuzzy signal could never show a stall, so the policy
 * would set it aside anyway; skipping it saves the edit distances.
 */
import type { SimilarArgsOptions } from '../options/detector-options.js';
import { argsSimilarityAtLeast } from '../text/args-similarity.js';
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';
import { OutcomeFlag, Ring } from '../state/call-history.js';
import type { LoopSignal } from '../types.js';
import { type DetectorContext, clampConfidence } from './context.js';
import type { Detector, ObservedCall } from './detector.js';
import { repeatProgress } from './progress.js';
import { snapshotArgs } from './snapshot-args.js';
import type { CallLog } from '../state/call-log.js';
import type { Rewindable } from '../state/rewindable.js';

/** Whether a success with a real answer is compared only after an earlier same answer (off only in tests). */
let answerGate = true;

/**
 * Turns the answered-before gate off (`false`) or back on, to test that it never changes a verdict.
 * @internal For tests.
 */
export function setAnswerGate(on: boolean): void {
  answerGate = on;
}

/** Detects retries of one tool with slightly varied arguments. Args are read from the call log. */
export class SimilarArgsDetector implements Detector, Rewindable {
  readonly name = 'similar_args';
  /** With volatile-text masking: masked copies of recent args, by call index (made on first use). */
  private masked: unknown[] | null = null;
  private maskedAt: Float64Array | null = null;
  private n = 0;

  constructor(
    private readonly ctx: DetectorContext & { readonly log: CallLog },
    private readonly o: SimilarArgsOptions,
    private readonly transform: ((s: string) => string) | null,
    private readonly onlyWhenFailing: boolean,
  ) {}

  record(_call: ObservedCall): void {
    this.n++;
  }

  private argsAt(i: number): unknown {
    const raw = this.ctx.log.argsOf(i);
    if (this.transform === null) return raw;
    const masked = (this.masked ??= new Array<unknown>(this.o.window + 1));
    const at = (this.maskedAt ??= new Float64Array(this.o.window + 1).fill(-1));
    const s = i % masked.length;
    if (at[s] !== i) {
      masked[s] = snapshotArgs(raw, this.transform);
      at[s] = i;
    }
    return masked[s];
  }

  check(): LoopSignal | null {
    const h = this.ctx.history;
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
    const cur = this.argsAt(last);
    const similar: number[] = [];
    for (let i = floor; i < last; i++) {
      if (!h.same(Ring.TOOL, i, last)) continue;
      if (argsSimilarityAtLeast(this.argsAt(i), cur, this.o.similarity, this.o.similarity) >= this.o.similarity) similar.push(i);
    }
    const count = similar.length + 1;
    if (count < this.o.threshold || similar.every((i) => h.same(Ring.SIG, i, last))) return null;
    const unit = [...similar, last];
    return {
      kind: 'similar_args',
      detector: this.name,
      pattern: `${this.ctx.log.preview(last)} is one of ${count} calls with nearly the same arguments`,
      confidence: clampConfidence(0.5 + 0.1 * (count - this.o.threshold)),
      loopStart: similar[0] as number,
      unit,
      repeatCount: count,
      progress: repeatProgress(h, unit, true),
      progressGated: true,
      fuzzy: true,
    };
  }

  /**
   * Whether a call of the same tool in the window (from `floor`) got exactly the outcome of call `last`:
   * without one, no unit of similar calls ending at `last` can be stalled (its last two would differ), so
   * the policy would set the signal aside and the edit distances are not worth computing.
   */
  private answeredBefore(floor: number, last: number): boolean {
    const h = this.ctx.history;
    for (let i = floor; i < last; i++) {
      if (h.same(Ring.TOOL, i, last) && h.same(Ring.OUTCOME, i, last)) return true;
    }
    return false;
  }

  private undo: { n: number; masked: unknown; at: number } | null = null;

  /** Remembers what the next record() changes (see Rewindable). */
  mark(): void {
    const s = this.n % (this.o.window + 1);
    this.undo = { n: this.n, masked: this.masked?.[s], at: this.maskedAt === null ? -1 : (this.maskedAt[s] as number) };
  }

  /** Undoes the record() made since mark(). */
  rollback(): void {
    const u = this.undo;
    if (u === null) return;
    this.undo = null;
    const s = u.n % (this.o.window + 1);
    if (this.masked !== null && this.maskedAt !== null) {
      this.masked[s] = u.masked;
      this.maskedAt[s] = u.at;
    }
    this.n = u.n;
  }

  reset(): void {
    this.undo = null;
    this.n = 0;
    this.masked = null;
    this.maskedAt = null;
  }

  /** Writes its state for a snapshot (the calls seen; masked copies are remade from the log). */
  save(w: ByteWriter): void {
    w.f64(this.n);
  }

  /** Reads what save() wrote. */
  load(r: ByteReader): void {
    this.reset();
    this.n = r.f64();
  }
}
