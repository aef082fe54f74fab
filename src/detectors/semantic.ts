/**
 * Semantic repeat: the action's token set (tool name, unless `includeTool` is off, plus description, or the
 * string values of its args)
 * has Jaccard similarity >= `threshold` with at least `minSimilar` of the previous `window` actions:
 * paraphrases of one idea. Actions with fewer than `minTokens` distinct tokens are not compared (one shared
 * word is not a paraphrase); with `sameTool`, only actions of the same tool are. Unless `countIdentical`,
 * at least one similar action must be a different call: identical repeats are the exact-repeat and
 * frequency detectors' business. Confidence `0.4 + 0.2 * similar` (corteX's SemanticJaccardDetector).
 *
 * With `method: 'sketch'` (the default, and what the WebAssembly build runs) each action keeps its
 * `sketchSize` smallest token hashes: exact for actions of at most that many tokens, a bottom-k estimate
 * beyond (see `token-set.ts`). With `method: 'exact'` whole token sets are kept.
 */
import type { SemanticOptions } from '../options/detector-options.js';
import { utf8Scratch } from '../fingerprint/canonical-hash.js';
import { actionText, encodeCapped } from '../text/action-text.js';
import { maskBytes } from '../text/mask-volatile.js';
import { jaccardExact, jaccardSketch, tokenSet } from '../text/token-set.js';
import { SnapshotError } from '../errors.js';
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';
import { Ring } from '../state/call-history.js';
import type { CallLog } from '../state/call-log.js';
import type { LoopSignal, Progress } from '../types.js';
import { type DetectorContext, clampConfidence, withPattern } from './context.js';
import type { Rewindable } from '../state/rewindable.js';
import type { Detector, ObservedCall } from './detector.js';
import { repeatProgress } from './progress.js';

/** How a call's args are walked for text: its ignored fields and the depth cap. */
export type WalkLookup = (tool: string) => { readonly ignoreKeys: ReadonlySet<string> | null; readonly maxDepth: number };

/** The signal for the action at `last` with similar earlier actions `similar` among the last `span`. */
export function semanticSignal(log: CallLog, last: number, similar: readonly number[], span: number, progress: Progress): LoopSignal {
  return semanticUnitSignal(log, [...similar, last], span, progress);
}

/**
 * {@link semanticSignal} of its unit (taken, not copied): the similar earlier actions, then the action they
 * are like (the last), as the module lists them.
 */
export function semanticUnitSignal(log: CallLog, unit: number[], span: number, progress: Progress): LoopSignal {
  const last = unit[unit.length - 1] as number;
  const similar = unit.length - 1;
  return withPattern({
    kind: 'semantic',
    detector: 'semantic',
    confidence: clampConfidence(0.4 + 0.2 * similar),
    loopStart: unit[0] as number,
    unit,
    repeatCount: unit.length,
    progress,
    progressGated: true,
    fuzzy: true,
  }, () => `${log.preview(last)} is a paraphrase of ${similar} of the last ${span} actions`);
}

/** Detects paraphrased repetitions of one action. */
export class SemanticDetector implements Detector, Rewindable {
  readonly name = 'semantic';
  private readonly sets: (Uint32Array | undefined)[];
  private readonly counts: Int32Array;
  private n = 0;

  constructor(
    private readonly ctx: DetectorContext,
    private readonly o: SemanticOptions,
    private readonly maskText: boolean,
    private readonly walk: WalkLookup,
  ) {
    this.sets = new Array<Uint32Array | undefined>(o.window + 1);
    this.counts = new Int32Array(o.window + 1);
  }

  record(call: ObservedCall): void {
    const w = this.walk(call.tool);
    const text = actionText(this.o.includeTool ? call.tool : '', call.args, call.event.description, this.o.maxTextLength, w.maxDepth, w.ignoreKeys);
    let len = encodeCapped(text, this.o.maxTextLength);
    let bytes = utf8Scratch();
    if (this.maskText) {
      bytes = maskBytes(bytes, len, this.o.maxTextLength);
      len = bytes.length;
    }
    const t = tokenSet(bytes, len, this.o.maxTokens);
    const slot = this.n % this.sets.length;
    this.sets[slot] = this.o.method === 'sketch' ? t.hashes.slice(0, this.o.sketchSize) : t.hashes;
    this.counts[slot] = t.count;
    this.n++;
  }

  private similarity(i: number, j: number): number {
    const a = this.sets[i % this.sets.length] as Uint32Array;
    const b = this.sets[j % this.sets.length] as Uint32Array;
    if (this.o.method === 'exact') return jaccardExact(a, b);
    return jaccardSketch(a, this.counts[i % this.sets.length] as number, b, this.counts[j % this.sets.length] as number, this.o.sketchSize);
  }

  check(): LoopSignal | null {
    const last = this.n - 1;
    if (last < 0 || (this.counts[last % this.sets.length] as number) < this.o.minTokens) return null;
    const h = this.ctx.history;
    const similar: number[] = [];
    const floor = Math.max(0, last - this.o.window);
    for (let i = floor; i < last; i++) {
      if ((this.counts[i % this.sets.length] as number) < this.o.minTokens || (this.o.sameTool && !h.same(Ring.TOOL, i, last))) continue;
      if (this.similarity(i, last) >= this.o.threshold) similar.push(i);
    }
    if (similar.length < this.o.minSimilar) return null;
    if (!this.o.countIdentical && similar.every((i) => h.same(Ring.SIG, i, last))) return null;
    const unit = [...similar, last];
    return semanticSignal(this.ctx.log, last, similar, last - floor, repeatProgress(h, unit.filter((i) => i >= h.oldest), true));
  }

  private undo: { n: number; set: Uint32Array | undefined; count: number } | null = null;

  /** Remembers what the next record() changes (see Rewindable). */
  mark(): void {
    const s = this.n % this.sets.length;
    this.undo = { n: this.n, set: this.sets[s], count: this.counts[s] as number };
  }

  /** Undoes the record() made since mark(). */
  rollback(): void {
    const u = this.undo;
    if (u === null) return;
    this.undo = null;
    const s = u.n % this.sets.length;
    this.sets[s] = u.set;
    this.counts[s] = u.count;
    this.n = u.n;
  }

  reset(): void {
    this.undo = null;
    this.n = 0;
    this.sets.fill(undefined);
    this.counts.fill(0);
  }

  /** Writes its state for a snapshot: the token sets of the actions in its window. */
  save(w: ByteWriter): void {
    w.f64(this.n);
    w.view(this.counts);
    for (const set of this.sets) {
      w.bool(set !== undefined);
      if (set !== undefined) w.view(set);
    }
  }

  /** Reads what save() wrote. */
  load(r: ByteReader): void {
    this.n = r.f64();
    r.into(this.counts);
    for (let i = 0; i < this.sets.length; i++) {
      if (!r.bool()) {
        this.sets[i] = undefined;
        continue;
      }
      const bytes = r.bytes();
      if (bytes.length % 4 !== 0) throw new SnapshotError('loopwatch: the snapshot is corrupt (a token set of odd length)');
      this.sets[i] = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
    }
  }
}
