/**
 * What verdicts say about recent calls: per call, the tool, the description, the signature and the
 * caller's step and round, kept by the host beside the fingerprint rings so patterns and messages can name
 * the calls; and for the newest `argsWindow` calls at most, the args as given (what similar args compares,
 * and what previews show: messages name the current call, or a cycle's unit). References and previews
 * are built only when a verdict needs them. Bounded by its capacity; a call's args are let go as soon as
 * nothing can read them, so a session does not hold on to its callers' objects.
 *
 * Without similar args or custom detectors (`keepAll` false), what reads a call's args after its own check
 * is a cycle's message, which names the calls of its unit; a call is in a unit only if it repeats the call
 * `p` before it for a period `p` the cycle detector tries (the last `p * repetitions` calls are
 * `p`-periodic). So once its check is over ({@link CallLog.settle}), a call that repeats none of the calls
 * `minPeriod` to `maxPeriod` before it is let go: a session that is not looping holds no args at all.
 *
 * ```
 *   index:   n-capacity ...                n-argsWindow ... n-1
 *   kept:    tool, signature, description, step, round (refs)
 *                                          args, previews (all, or those a cycle's unit can name)
 * ```
 */
import { SnapshotError } from '../errors.js';
import { toHex } from '../fingerprint/u64.js';
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';
import { readValue, writeArgs } from '../snapshot/value-codec.js';
import { collapsedText } from '../text/preview-text.js';
import { CUT_MARGIN, cutText } from '../text/shown-text.js';
import type { CallRef } from '../types.js';
import type { Rewindable } from './rewindable.js';

/** Characters of argument text shown in a call preview. */
export const PREVIEW_ARGS_LENGTH = 80;
/** Characters of a tool name shown in previews and call references (`CallRef.tool`); longer names are cut with `…`. */
export const SHOWN_TOOL_LENGTH = 256;

/** A compact, single-line preview of a call: `tool {"args":...}`, the tool name cut to {@link SHOWN_TOOL_LENGTH}. */
export function previewCall(tool: string, args: unknown): string {
  const name = cutText(tool, SHOWN_TOOL_LENGTH);
  return args === undefined ? name : `${name} ${previewArgs(args)}`;
}

/**
 * The args part of a call preview: their text on one line (white space runs collapsed), cut to
 * {@link PREVIEW_ARGS_LENGTH} characters (never inside a secret: see `cutText`).
 */
export function previewArgs(args: unknown): string {
  // written only as far as the preview and the secrets across its cut reach (an 8 KB file body costs its
  // first characters): one character more than that says whether there is more
  const need = PREVIEW_ARGS_LENGTH + CUT_MARGIN;
  let shown = collapsedText(args, need, typeof args === 'string');
  if (shown === null) {
    // not JSON data: as JSON.stringify writes it (BigInt as digits), or String() when it writes nothing
    let text: string;
    try {
      text = JSON.stringify(args, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? String(args);
    } catch {
      text = '[unserialisable args]';
    }
    shown = collapsedText(text, need, true) as string;
  }
  return cutText(shown, PREVIEW_ARGS_LENGTH, shown.length > need);
}

/** What one push() overwrites, kept by mark() for rollback(). */
interface LogSlot {
  readonly n: number;
  readonly argsSlot: number;
  readonly tool: string | undefined;
  readonly args: unknown;
  readonly held: number;
  readonly settled: boolean;
  readonly sigHi: number;
  readonly sigLo: number;
  readonly description: string | undefined;
  readonly step: number;
  readonly round: number;
  readonly preview: string | undefined;
  readonly ref: CallRef | undefined;
}

/** Turns args as given into args as compared (JSON strings parsed, the tool's identity applied). */
export interface ArgsNormaliser {
  /** The args as compared. */
  normaliseArgs(args: unknown, tool: string): unknown;
}

/** Which calls' args a log keeps, and for how long: see {@link argsRetention}. */
export interface ArgsRetention {
  /** Calls whose args (and previews) may be kept: the newest ones, at least 1. */
  readonly window: number;
  /** Whether every call in the window keeps its args (similar args, custom detectors). */
  readonly keepAll: boolean;
  /** With `keepAll` false: the cycle periods whose units a message names (0 and 0: none). */
  readonly minPeriod: number;
  readonly maxPeriod: number;
}

/** How a call's args are held (the `held` column). */
const enum Held {
  /** As compared (normalised). */
  Normalised = 0,
  /** As given: normalised on first read. */
  Raw = 1,
  /** Let go after the call's check (see settle()): neither args nor preview are kept. */
  Released = 2,
}

/**
 * Recent calls of one session. The columns most sessions never need (descriptions, steps, rounds,
 * previews, references) are made on first use: a session costs its tools, signatures and recent args.
 */
export class CallLog implements Rewindable {
  private readonly tools: (string | undefined)[];
  /** The newest `argsWindow` calls' args, at `index % argsWindow`, and how each is held (a Held). */
  private readonly args: unknown[];
  private readonly held: Held[];
  private readonly sig: Uint32Array;
  private descriptions: (string | undefined)[] | null = null;
  private steps: Float64Array | null = null;
  private rounds: Float64Array | null = null;
  private previews: (string | undefined)[] | null = null;
  private refs: (CallRef | undefined)[] | null = null;
  private n = 0;

  /** Calls whose args and previews may be kept (the newest ones; at most `capacity`). */
  readonly argsWindow: number;
  /** Whether the newest call is settled: its check is over (see settle()). */
  private settled = true;

  constructor(
    readonly capacity: number,
    private readonly normaliser: ArgsNormaliser,
    private readonly retention: ArgsRetention = { window: capacity, keepAll: true, minPeriod: 0, maxPeriod: 0 },
  ) {
    this.argsWindow = Math.max(1, Math.min(capacity, retention.window));
    this.tools = new Array<string | undefined>(capacity);
    this.args = new Array<unknown>(this.argsWindow);
    this.held = new Array<Held>(this.argsWindow).fill(Held.Normalised);
    this.sig = new Uint32Array(capacity * 2);
  }

  /**
   * Records the call with the next index. `normalised` says whether `args` are already as compared; if
   * not, they are normalised when a preview needs them.
   */
  push(tool: string, args: unknown, normalised: boolean, description: string | undefined, sigHi: number, sigLo: number, step: number | undefined, round: number | undefined): void {
    const s = this.n % this.capacity;
    const a = this.n % this.argsWindow;
    this.tools[s] = tool;
    this.args[a] = args;
    this.held[a] = normalised ? Held.Normalised : Held.Raw;
    this.settled = false;
    if (description !== undefined) (this.descriptions ??= new Array<string | undefined>(this.capacity))[s] = description;
    else if (this.descriptions !== null) this.descriptions[s] = undefined;
    this.sig[2 * s] = sigHi;
    this.sig[2 * s + 1] = sigLo;
    if (step !== undefined) (this.steps ??= new Float64Array(this.capacity).fill(NaN))[s] = step;
    else if (this.steps !== null) this.steps[s] = NaN;
    if (round !== undefined) (this.rounds ??= new Float64Array(this.capacity).fill(NaN))[s] = round;
    else if (this.rounds !== null) this.rounds[s] = NaN;
    if (this.previews !== null) this.previews[a] = undefined;
    if (this.refs !== null) this.refs[s] = undefined;
    this.n++;
  }

  private kept(index: number): boolean {
    return index >= 0 && index < this.n && index >= this.n - this.capacity;
  }

  /** Whether a call's args (and preview) are still kept. */
  private argsKept(index: number): boolean {
    return index >= 0 && index < this.n && index >= this.n - this.argsWindow && this.held[index % this.argsWindow] !== Held.Released;
  }

  /**
   * Says the newest call's check is over (its verdict made): unless something can still read its args
   * (see the module comment), they and its preview are let go. Idempotent; a push starts a new call.
   */
  settle(): void {
    if (this.settled) return;
    this.settled = true;
    const r = this.retention;
    const last = this.n - 1;
    if (r.keepAll || last < 0) return;
    const lo = this.sig[2 * (last % this.capacity) + 1];
    for (let p = r.minPeriod; p <= r.maxPeriod && p >= 1; p++) {
      // the low 32 bits, as the rings compare calls: a collision keeps args, never loses them
      if (this.kept(last - p) && this.sig[2 * ((last - p) % this.capacity) + 1] === lo) return;
    }
    const a = last % this.argsWindow;
    this.args[a] = undefined;
    this.held[a] = Held.Released;
    if (this.previews !== null) this.previews[a] = undefined;
  }

  /**
   * The indices of the calls whose args are held now, oldest first.
   * @internal For tests of what a session keeps.
   */
  heldArgs(): number[] {
    const out: number[] = [];
    for (let i = Math.max(0, this.n - this.argsWindow); i < this.n; i++) if (this.argsKept(i) && this.args[i % this.argsWindow] !== undefined) out.push(i);
    return out;
  }

  /** The low 32 bits of a call's signature, or undefined when it is no longer kept. */
  signatureLow(index: number): number | undefined {
    return this.kept(index) ? this.sig[2 * (index % this.capacity) + 1] : undefined;
  }

  /** The reference of a call (frozen, built once per call), if it is still kept. */
  ref(index: number): CallRef | undefined {
    if (!this.kept(index)) return undefined;
    const s = index % this.capacity;
    const refs = (this.refs ??= new Array<CallRef | undefined>(this.capacity));
    let r = refs[s];
    if (r === undefined) {
      const step = this.steps === null ? NaN : (this.steps[s] as number);
      const round = this.rounds === null ? NaN : (this.rounds[s] as number);
      r = Object.freeze({
        index,
        tool: cutText(this.tools[s] as string, SHOWN_TOOL_LENGTH),
        signature: toHex(this.sig[2 * s] as number, this.sig[2 * s + 1] as number),
        ...(Number.isNaN(step) ? {} : { step }),
        ...(Number.isNaN(round) ? {} : { round }),
      });
      refs[s] = r;
    }
    return r;
  }

  /** The args of a call as compared, if they are still kept (the newest `argsWindow` calls). */
  argsOf(index: number): unknown {
    if (!this.argsKept(index)) return undefined;
    const a = index % this.argsWindow;
    if (this.held[a] === Held.Raw) {
      this.args[a] = this.normaliser.normaliseArgs(this.args[a], this.tools[index % this.capacity] as string);
      this.held[a] = Held.Normalised;
    }
    return this.args[a];
  }

  /** The preview of a call, or `call #index` when its args are no longer kept (see argsWindow). */
  preview(index: number): string {
    if (!this.argsKept(index)) return `call #${index}`;
    const a = index % this.argsWindow;
    const previews = (this.previews ??= new Array<string | undefined>(this.argsWindow));
    let p = previews[a];
    if (p === undefined) {
      const s = index % this.capacity;
      const d = this.descriptions === null ? undefined : this.descriptions[s];
      p = previewCall(this.tools[s] as string, d ?? this.argsOf(index));
      previews[a] = p;
    }
    return p;
  }

  /**
   * Writes the kept calls for a snapshot: for the newest `argsWindow`, previews as they read now, and
   * the args as similar args compares them when `withArgs`.
   */
  save(w: ByteWriter, withArgs: boolean): void {
    w.u32(this.capacity);
    w.u32(this.argsWindow);
    w.f64(this.n);
    for (let i = Math.max(0, this.n - this.capacity); i < this.n; i++) {
      const s = i % this.capacity;
      w.str(this.tools[s] as string);
      w.optStr(this.descriptions === null ? undefined : this.descriptions[s]);
      w.u32(this.sig[2 * s] as number);
      w.u32(this.sig[2 * s + 1] as number);
      w.f64(this.steps === null ? NaN : (this.steps[s] as number));
      w.f64(this.rounds === null ? NaN : (this.rounds[s] as number));
      if (i < this.n - this.argsWindow) continue;
      // a call let go writes `call #i`, as its preview reads (and as no message will ever read it)
      w.str(this.preview(i));
      if (withArgs) writeArgs(w, this.argsOf(i));
    }
  }

  /** Reads what save() wrote, replacing every call. */
  load(r: ByteReader, withArgs: boolean): void {
    const capacity = r.u32();
    if (capacity !== this.capacity) throw new SnapshotError(`loopwatch: the snapshot keeps ${capacity} calls where these options keep ${this.capacity}`);
    const window = r.u32();
    if (window !== this.argsWindow) throw new SnapshotError(`loopwatch: the snapshot keeps the args of ${window} calls where these options keep ${this.argsWindow}`);
    const n = r.f64();
    if (!Number.isSafeInteger(n) || n < 0) throw new SnapshotError('loopwatch: the snapshot is corrupt (a call count that is not a count)');
    this.reset();
    this.previews = new Array<string | undefined>(this.argsWindow);
    for (let i = Math.max(0, n - this.capacity); i < n; i++) {
      const s = i % this.capacity;
      this.tools[s] = r.str();
      const d = r.optStr();
      if (d !== undefined) (this.descriptions ??= new Array<string | undefined>(this.capacity))[s] = d;
      this.sig[2 * s] = r.u32();
      this.sig[2 * s + 1] = r.u32();
      const step = r.f64();
      if (!Number.isNaN(step)) (this.steps ??= new Float64Array(this.capacity).fill(NaN))[s] = step;
      const round = r.f64();
      if (!Number.isNaN(round)) (this.rounds ??= new Float64Array(this.capacity).fill(NaN))[s] = round;
      if (i < n - this.argsWindow) continue;
      const a = i % this.argsWindow;
      this.previews[a] = r.str();
      this.args[a] = withArgs ? readValue(r) : undefined;
      this.held[a] = Held.Normalised;
    }
    this.n = n;
    this.settled = true;
  }

  private undo: LogSlot | null = null;

  /** Remembers the slot the next push() overwrites (see Rewindable). */
  mark(): void {
    const s = this.n % this.capacity;
    const a = this.n % this.argsWindow;
    this.undo = {
      n: this.n,
      argsSlot: a,
      tool: this.tools[s],
      args: this.args[a],
      held: this.held[a] as Held,
      settled: this.settled,
      sigHi: this.sig[2 * s] as number,
      sigLo: this.sig[2 * s + 1] as number,
      description: this.descriptions?.[s],
      step: this.steps === null ? NaN : (this.steps[s] as number),
      round: this.rounds === null ? NaN : (this.rounds[s] as number),
      preview: this.previews?.[a],
      ref: this.refs?.[s],
    };
  }

  /** Undoes the push() made since mark(). */
  rollback(): void {
    const u = this.undo;
    if (u === null) return;
    this.undo = null;
    const s = u.n % this.capacity;
    this.n = u.n;
    const a = u.argsSlot;
    this.tools[s] = u.tool;
    this.args[a] = u.args;
    this.held[a] = u.held;
    this.settled = u.settled;
    this.sig[2 * s] = u.sigHi;
    this.sig[2 * s + 1] = u.sigLo;
    if (this.descriptions !== null) this.descriptions[s] = u.description;
    if (this.steps !== null) this.steps[s] = u.step;
    if (this.rounds !== null) this.rounds[s] = u.round;
    if (this.previews !== null) this.previews[a] = u.preview;
    if (this.refs !== null) this.refs[s] = u.ref;
  }

  /** Both words of a call's signature as a 16-digit hex string, or undefined when it is no longer kept. */
  signatureHex(index: number): string | undefined {
    if (!this.kept(index)) return undefined;
    const s = index % this.capacity;
    return toHex(this.sig[2 * s] as number, this.sig[2 * s + 1] as number);
  }

  /** Forgets every call. */
  reset(): void {
    this.undo = null;
    this.n = 0;
    this.settled = true;
    this.tools.fill(undefined);
    this.args.fill(undefined);
    this.held.fill(Held.Normalised);
    this.descriptions = null;
    this.steps = null;
    this.rounds = null;
    this.previews = null;
    this.refs = null;
  }
}
