/**
 * What verdicts say about recent calls: per call, the tool, the args as given, the description, the
 * signature and the caller's step and round, kept by the host beside the fingerprint rings so patterns and
 * messages can name the calls. References and previews are built only when a verdict needs them.
 * Bounded by its capacity.
 */
import { toHex } from '../fingerprint/u64.js';
import type { CallRef } from '../types.js';

/** Characters of argument text shown in a call preview. */
export const PREVIEW_ARGS_LENGTH = 80;

/** A compact, single-line preview of a call: `tool {"args":...}`. */
export function previewCall(tool: string, args: unknown): string {
  let text: string;
  if (args === undefined) return tool;
  if (typeof args === 'string') text = args;
  else {
    try {
      text = JSON.stringify(args, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? String(args);
    } catch {
      text = '[unserialisable args]';
    }
  }
  text = text.replace(/\s+/g, ' ');
  if (text.length > PREVIEW_ARGS_LENGTH) text = text.slice(0, PREVIEW_ARGS_LENGTH - 1) + '…';
  return `${tool} ${text}`;
}

/** Turns args as given into args as compared (JSON strings parsed, the tool's identity applied). */
export type ArgsNormaliser = (args: unknown, tool: string) => unknown;

/** Recent calls of one session. */
export class CallLog {
  private readonly tools: (string | undefined)[];
  private readonly args: unknown[];
  private readonly raw: Uint8Array;
  private readonly descriptions: (string | undefined)[];
  private readonly sig: Uint32Array;
  private readonly steps: Float64Array;
  private readonly rounds: Float64Array;
  private readonly previews: (string | undefined)[];
  private readonly refs: (CallRef | undefined)[];
  private n = 0;

  constructor(
    readonly capacity: number,
    private readonly normalise: ArgsNormaliser,
  ) {
    this.tools = new Array<string | undefined>(capacity);
    this.args = new Array<unknown>(capacity);
    this.raw = new Uint8Array(capacity);
    this.descriptions = new Array<string | undefined>(capacity);
    this.sig = new Uint32Array(capacity * 2);
    this.steps = new Float64Array(capacity);
    this.rounds = new Float64Array(capacity);
    this.previews = new Array<string | undefined>(capacity);
    this.refs = new Array<CallRef | undefined>(capacity);
  }

  /**
   * Records the call with the next index. `normalised` says whether `args` are already as compared; if
   * not, they are normalised when a preview needs them.
   */
  push(tool: string, args: unknown, normalised: boolean, description: string | undefined, sigHi: number, sigLo: number, step: number | undefined, round: number | undefined): void {
    const s = this.n % this.capacity;
    this.tools[s] = tool;
    this.args[s] = args;
    this.raw[s] = normalised ? 0 : 1;
    this.descriptions[s] = description;
    this.sig[2 * s] = sigHi;
    this.sig[2 * s + 1] = sigLo;
    this.steps[s] = step === undefined ? NaN : step;
    this.rounds[s] = round === undefined ? NaN : round;
    this.previews[s] = undefined;
    this.refs[s] = undefined;
    this.n++;
  }

  private kept(index: number): boolean {
    return index >= 0 && index < this.n && index >= this.n - this.capacity;
  }

  /** The reference of a call (frozen, built once per call), if it is still kept. */
  ref(index: number): CallRef | undefined {
    if (!this.kept(index)) return undefined;
    const s = index % this.capacity;
    let r = this.refs[s];
    if (r === undefined) {
      const step = this.steps[s] as number;
      const round = this.rounds[s] as number;
      r = Object.freeze({
        index,
        tool: this.tools[s] as string,
        signature: toHex(this.sig[2 * s] as number, this.sig[2 * s + 1] as number),
        ...(Number.isNaN(step) ? {} : { step }),
        ...(Number.isNaN(round) ? {} : { round }),
      });
      this.refs[s] = r;
    }
    return r;
  }

  /** The args of a call as compared, if it is still kept. */
  argsOf(index: number): unknown {
    if (!this.kept(index)) return undefined;
    const s = index % this.capacity;
    if (this.raw[s] === 1) {
      this.args[s] = this.normalise(this.args[s], this.tools[s] as string);
      this.raw[s] = 0;
    }
    return this.args[s];
  }

  /** The preview of a call, or `call #index` when it is no longer kept. */
  preview(index: number): string {
    if (!this.kept(index)) return `call #${index}`;
    const s = index % this.capacity;
    let p = this.previews[s];
    if (p === undefined) {
      const d = this.descriptions[s];
      p = previewCall(this.tools[s] as string, d ?? this.argsOf(index));
      this.previews[s] = p;
    }
    return p;
  }

  /** Forgets every call. */
  reset(): void {
    this.n = 0;
    this.tools.fill(undefined);
    this.args.fill(undefined);
    this.descriptions.fill(undefined);
    this.previews.fill(undefined);
    this.refs.fill(undefined);
  }
}
