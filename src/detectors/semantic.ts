/**
 * Semantic repeat: the action's token set (tool name plus description, or the string values of its args)
 * has Jaccard similarity >= `threshold` with at least `minSimilar` of the previous `window` actions:
 * paraphrases of one idea. Actions with fewer than `minTokens` tokens are not compared (one shared word
 * is not a paraphrase); with `sameTool`, only actions of the same tool are. Unless `countIdentical`, at
 * least one similar action must be a different call: identical repeats are the exact-repeat and
 * frequency detectors' business.
 * Confidence `0.4 + 0.2 * similar` (corteX's SemanticJaccardDetector).
 *
 * This is the exact reference: every action keeps its whole token set (up to `maxTokens`).
 */
import type { SemanticOptions } from '../options/detector-options.js';
import { utf8Scratch } from '../fingerprint/canonical-hash.js';
import { actionText, encodeCapped } from '../text/action-text.js';
import { jaccard, tokenSet } from '../text/token-set.js';
import type { LoopSignal } from '../types.js';
import { type DetectorContext, clampConfidence } from './context.js';
import type { Detector, ObservedCall } from './detector.js';
import { repeatProgress } from './progress.js';

/** Turns action text before tokenising (volatile-text masking), or null. */
export type TextTransform = ((text: string) => string) | null;

/** Detects paraphrased repetitions of one action. */
export class SemanticDetector implements Detector {
  readonly name = 'semantic';
  private readonly sets: (Uint32Array | undefined)[];
  private n = 0;

  constructor(
    private readonly ctx: DetectorContext,
    private readonly o: SemanticOptions,
    private readonly transform: TextTransform,
  ) {
    this.sets = new Array<Uint32Array | undefined>(o.window + 1);
  }

  /** The token set of a call's action text. */
  tokens(call: ObservedCall): Uint32Array {
    let text = actionText(call.tool, call.args, call.event.description, this.o.maxTextLength);
    if (this.transform !== null) text = this.transform(text);
    const len = encodeCapped(text, this.o.maxTextLength);
    return tokenSet(utf8Scratch(), len, this.o.maxTokens);
  }

  record(call: ObservedCall): void {
    this.sets[this.n % this.sets.length] = this.tokens(call);
    this.n++;
  }

  check(): LoopSignal | null {
    const last = this.n - 1;
    if (last < 0) return null;
    const cur = this.sets[last % this.sets.length] as Uint32Array;
    const min = this.o.minTokens * 2;
    if (cur.length < min) return null;
    const h = this.ctx.history;
    const similar: number[] = [];
    const floor = Math.max(0, last - this.o.window);
    for (let i = floor; i < last; i++) {
      const other = this.sets[i % this.sets.length] as Uint32Array;
      if (other.length < min || (this.o.sameTool && !h.same(h.tool, i, last))) continue;
      if (jaccard(cur, other) >= this.o.threshold) similar.push(i);
    }
    if (similar.length < this.o.minSimilar) return null;
    if (!this.o.countIdentical && similar.every((i) => h.same(h.sig, i, last))) return null;
    const unit = [...similar, last];
    return {
      kind: 'semantic',
      detector: this.name,
      pattern: `${this.ctx.log.preview(last)} is a paraphrase of ${similar.length} of the last ${last - floor} actions`,
      confidence: clampConfidence(0.4 + 0.2 * similar.length),
      loopStart: similar[0] as number,
      unit,
      repeatCount: unit.length,
      progress: repeatProgress(h, unit.filter((i) => i >= h.oldest), true),
      progressGated: true,
      fuzzy: true,
    };
  }

  reset(): void {
    this.n = 0;
    this.sets.fill(undefined);
  }
}
