/**
 * What verdicts say about recent calls: per call, the tool, the description, the signature and the
 * caller's step and round, kept by the host beside the fingerprint rings so patterns and messages can name
 * the calls; and for the newest `argsWindow` calls at most, the args as given (what custom detectors may
 * read) or their previews (what messages show: they name the current call, or a cycle's unit). References
 * and previews are built only when a verdict needs them. Bounded by its capacity; a call's args are let go
 * as soon as nothing can read them, so a session does not hold on to its callers' objects.
 *
 * Without custom detectors (`keepAll` false), what reads a call after its own check is a cycle's message,
 * which names the calls of its unit by their previews; a call is in a unit only if it repeats the call `p`
 * before it for a period `p` the cycle detector tries (the last `p * repetitions` calls are `p`-periodic).
 * So once its check is over ({@link CallLog.settle}), a call that repeats one of the calls `minPeriod` to
 * `maxPeriod` before it keeps its preview (made then; or, for args read from a record's bytes, their JSON
 * text when no longer than the preview could be, made into the preview when a message first reads it) and
 * no args, and any other call nothing at all: a session holds no args past its newest call, whatever their
 * size. (Similar args keeps its own bounded summaries of args: detectors/similar-args.ts.)
 *
 * ```
 *   index:   n-capacity ...                n-argsWindow ... n-1
 *   kept:    tool, signature, description, step, round (a call's reference is built from these when read)
 *                                          args and previews (keepAll), or the previews (or short args texts) a cycle's unit can name
 * ```
 */
import { SnapshotError } from '../errors.js';
import { toHex } from '../fingerprint/u64.js';
import { ArgsInBytes, JsonArgsText } from '../fingerprint/json-args-text.js';
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';
import { readValue } from '../snapshot/value-codec.js';
import { PREVIEW_ARGS_LENGTH, SHOWN_TOOL_LENGTH, previewCall, previewJsonCall } from '../text/call-preview.js';
import { cutText } from '../text/shown-text.js';
import { NO_TOOL_ID, toolId, toolName } from './tool-names.js';
import { giveWords, takeWords } from './word-blocks.js';
import type { CallRef } from '../types.js';
import type { Rewindable } from './rewindable.js';
import { callName } from '../text/call-number.js';

/**
 * Words a call past the log's three that a session's CallFacts keeps in the log's words (its target; its
 * bits are the high half of the log's tool word, whose low half is the tool's number).
 */
export const FACT_WORDS = 1;

/** What one push() overwrites, kept by mark() for rollback() (the newest call is settled by then). */
interface LogSlot {
  readonly n: number;
  readonly toolWord: number;
  readonly otherTool: string | undefined;
  readonly sigHi: number;
  readonly sigLo: number;
  readonly description: string | undefined;
  readonly step: number;
  readonly round: number;
  /** The settled call the push lets go of from the args ring (at `n % argsWindow`). */
  readonly args: unknown;
  readonly held: Held;
  readonly preview: string | undefined;
}

/** Turns args as given into args as compared (JSON strings parsed, the tool's identity applied). */
export interface ArgsNormaliser {
  /** The args as compared. */
  normaliseArgs(args: unknown, tool: string): unknown;
  /**
   * Whether a call of `tool` has its args as compared exactly as parsed (no identity applies): then the
   * preview of args still in their record's bytes is read from their text. Absent: never.
   */
  parsedAsIs?(tool: string): boolean;
}

/**
 * Set in a call's tool word while the previews column holds the call's args' JSON text rather than its
 * preview: the preview is made from that text when a message first reads it. The word's low half is the
 * log's (the tool's number in 15 bits, tool-names.ts, and this bit); its high half the call facts' bits.
 */
const TEXT_KEPT = 0x8000;
/** The tool word's bits that are the tool's number. */
const TOOL_BITS = 0x7fff;

/** The words of a log whose shared block was given back (see CallLog.dropWords): none. */
const NO_WORDS = new Uint32Array(0);

/** Which calls' args a log keeps, and for how long: see {@link argsRetention}. */
export interface ArgsRetention {
  /** Calls whose args (and previews) may be kept: the newest ones, at least 1. */
  readonly window: number;
  /** Whether every call in the window keeps its args (custom detectors). */
  readonly keepAll: boolean;
  /** With `keepAll` false: the cycle periods whose units a message names (0 and 0: none). */
  readonly minPeriod: number;
  readonly maxPeriod: number;
  /**
   * Whether something reads every call's args as values (similar args' summary), so the outcome facts read
   * them from those values rather than from their record's bytes (see factArgsOf). @default false
   */
  readonly everyValue?: boolean;
}

/** How a call's args are held (the `held` column). */
const enum Held {
  /** As compared (normalised). */
  Normalised = 0,
  /** As given: normalised on first read. */
  Raw = 1,
  /** Let go after the call's check (see settle()): neither args nor preview are kept. */
  Released = 2,
  /** Its preview kept (or the JSON text it is made from, see settle()), and no args. */
  Preview = 3,
}

/**
 * Recent calls of one session. The columns most sessions never need (descriptions, steps, rounds,
 * previews, and args kept past their call's check) are made on first use: a session that is
 * not looping costs its tools and signatures. The newest call's args are held apart until settle()
 * says whether the ring keeps them.
 */
export class CallLog implements Rewindable {
  /**
   * Per call at `index % capacity`, from `wordBase`: its signature's high and low words and its tool's number
   * (tool-names.ts: 15 bits, and TEXT_KEPT, the word's low half; the high half is the call facts'); past them, `FACT_WORDS`
   * words a call that the session's CallFacts keeps there (it reads `words` and `wordBase` through the log,
   * which lets go of them when its session is disposed: {@link dropWords}).
   * @internal
   */
  words: Uint32Array;
  /** Where the log's words start in `words` (0 in an array of its own; a block's offset in a shared chunk). */
  wordBase = 0;
  /** Tools the shared table gives no number, at `index % capacity` (made on first use). */
  private otherTools: (string | undefined)[] | null = null;
  /** Settled calls' args among the newest `argsWindow`, at `index % argsWindow`, and how each is held. */
  private args: unknown[] | null = null;
  private held: Held[] | null = null;
  private previews: (string | undefined)[] | null = null;
  private descriptions: (string | undefined)[] | null = null;
  /** The caller's steps (from 0) and rounds (from `capacity`), NaN for none: one array for both, made by the first. */
  private stepRounds: Float64Array | null = null;
  private n = 0;
  /**
   * The newest call's args, how they are held (Released once it is settled: its check is over, see
   * settle(); one field for both) and its preview, until it is settled.
   */
  private cur: unknown = undefined;
  private curHeld: Held = Held.Released;
  private curPreview: string | undefined = undefined;

  /** Calls whose args and previews may be kept (the newest ones; at most `capacity`): read, not kept (a field is 8 B a session). */
  get argsWindow(): number {
    return Math.max(1, Math.min(this.capacity, this.retention.window));
  }

  constructor(
    readonly capacity: number,
    private readonly normaliser: ArgsNormaliser,
    private readonly retention: ArgsRetention = { window: capacity, keepAll: true, minPeriod: 0, maxPeriod: 0 },
    shared = false,
  ) {
    if (shared) {
      const block = takeWords(capacity * (3 + FACT_WORDS));
      this.words = block.words;
      this.wordBase = block.base;
    } else this.words = new Uint32Array(capacity * (3 + FACT_WORDS));
  }

  /**
   * Gives the shared block of a log made with `shared` back to the thread (a disposed session's), as it is:
   * nothing reads a disposed session (LoopDetector refuses every read with a DisposedError), so its words
   * are not copied first, and the log reads as holding no call afterwards (a call a custom detector kept
   * reads no args nor signature, as one past the log's window). Its owner calls it once
   * (WasmPipeline.dispose); the log keeps no flag of its own (a field is 8 B a session).
   */
  dropWords(): void {
    giveWords(this.capacity * (3 + FACT_WORDS), this.words, this.wordBase);
    this.words = NO_WORDS;
    this.wordBase = 0;
    this.n = 0;
    this.cur = undefined;
    this.curHeld = Held.Released;
  }

  /**
   * Records the call with the next index (settling the one before if that was not done). `normalised`
   * says whether `args` are already as compared; if not, they are normalised when something reads them.
   */
  push(tool: string, args: unknown, normalised: boolean, description: string | undefined, sigHi: number, sigLo: number, step: number | undefined, round: number | undefined): void {
    this.settle();
    const s = this.n % this.capacity;
    this.setTool(s, tool);
    if (description !== undefined) (this.descriptions ??= new Array<string | undefined>(this.capacity))[s] = description;
    else if (this.descriptions !== null) this.descriptions[s] = undefined;
    this.words[this.wordBase + 3 * s] = sigHi;
    this.words[this.wordBase + 3 * s + 1] = sigLo;
    if (step !== undefined || round !== undefined || this.stepRounds !== null) this.setStepRound(s, step ?? NaN, round ?? NaN);
    // the ring's entry for this index is the call `argsWindow` before, which is no longer kept
    if (this.args !== null || this.previews !== null) this.forget(this.n % this.argsWindow);
    this.cur = args;
    this.curHeld = normalised ? Held.Normalised : Held.Raw;
    this.curPreview = undefined;
    this.n++;
  }

  /** Sets slot `s`'s step and round (NaN: none), making the array if need be. */
  private setStepRound(s: number, step: number, round: number): void {
    const a = (this.stepRounds ??= new Float64Array(2 * this.capacity).fill(NaN));
    a[s] = step;
    a[this.capacity + s] = round;
  }

  private stepOf(s: number): number {
    return this.stepRounds === null ? NaN : (this.stepRounds[s] as number);
  }

  private roundOf(s: number): number {
    return this.stepRounds === null ? NaN : (this.stepRounds[this.capacity + s] as number);
  }

  private setTool(s: number, tool: string): void {
    const id = toolId(tool);
    const i = this.wordBase + 3 * s + 2;
    // the low half: the word's high half is the call facts' (policy/call-facts.ts)
    this.words[i] = ((this.words[i] as number) & 0xffff0000) | id;
    if (id === NO_TOOL_ID) (this.otherTools ??= new Array<string | undefined>(this.capacity))[s] = tool;
    else if (this.otherTools !== null) this.otherTools[s] = undefined;
  }

  /** The tool of the call at `s` (a kept call). */
  private toolAt(s: number): string {
    const id = (this.words[this.wordBase + 3 * s + 2] as number) & TOOL_BITS;
    return id !== NO_TOOL_ID ? toolName(id) : ((this.otherTools as (string | undefined)[])[s] as string);
  }

  private forget(a: number): void {
    if (this.args !== null) this.args[a] = undefined;
    if (this.held !== null) this.held[a] = Held.Released;
    if (this.previews !== null) this.previews[a] = undefined;
  }

  /**
   * How the settled call at `a` of the args ring is held. Without `keepAll` the log makes no args or held
   * column: a call there is held as its preview exactly when it has one (settle() and load() keep one for
   * every call they keep, forget() drops it), else let go.
   */
  private heldAt(a: number): Held {
    if (this.held !== null) return this.held[a] as Held;
    return this.previews !== null && this.previews[a] !== undefined ? Held.Preview : Held.Released;
  }

  /**
   * Says the newest call's check is over (its verdict made): the ring keeps its args and preview when
   * something can still read them (see the module comment), else they are let go. Idempotent.
   *
   * A call a cycle's message may name keeps its preview, made now while its args are at hand; or, for args
   * still in their record's bytes (the bytes may be a pool batch's or the caller's, reused after the check)
   * whose text is no longer than the longest preview the call can have, that text, which the preview is
   * made from when a message first reads it (most such calls are never named: their cycle never fires or
   * the policy sets it aside).
   */
  settle(): void {
    if (this.curHeld === Held.Released) return;
    const keepAll = this.retention.keepAll;
    const named = !keepAll && this.newestRepeatsAPeriodBack();
    const text = named && this.curPreview === undefined ? this.shortArgsText() : null;
    const preview = text !== null ? text : named ? this.preview(this.n - 1) : this.curPreview;
    // args still in a record's bytes are kept as their text: the bytes may be a pool batch's, which goes back
    const args = keepAll && JsonArgsText.is(this.cur) ? this.cur.text : this.cur;
    const held = this.curHeld;
    this.curHeld = Held.Released;
    this.cur = undefined;
    this.curPreview = undefined;
    if (!keepAll && !named) return;
    const a = (this.n - 1) % this.argsWindow;
    if (keepAll) {
      (this.args ??= new Array<unknown>(this.argsWindow))[a] = args;
      (this.held ??= new Array<Held>(this.argsWindow).fill(Held.Released))[a] = held;
    }
    // without keepAll a named call always has its preview (or its text), and that is how it is held (heldAt)
    if (preview !== undefined) (this.previews ??= new Array<string | undefined>(this.argsWindow))[a] = preview;
    if (text !== null) {
      const w = this.wordBase + 3 * ((this.n - 1) % this.capacity) + 2;
      this.words[w] = (this.words[w] as number) | TEXT_KEPT;
    }
  }

  /**
   * The newest call's args' JSON text, when its preview can be made from that alone later: args still in
   * their record's bytes, no description, no identity for the tool, and text no longer than the longest
   * preview the call can have (so the column holds no more than it would). Else null.
   */
  private shortArgsText(): string | null {
    const cur = this.cur;
    if (this.curHeld !== Held.Raw || !JsonArgsText.is(cur)) return null;
    const s = (this.n - 1) % this.capacity;
    if (this.descriptions !== null && this.descriptions[s] !== undefined) return null;
    const tool = this.toolAt(s);
    if (cur.length > PREVIEW_ARGS_LENGTH + 1 + Math.min(tool.length, SHOWN_TOOL_LENGTH) || this.normaliser.parsedAsIs?.(tool) !== true) return null;
    return cur.text;
  }

  /**
   * Whether the newest call repeats the call `p` before it for a cycle period `p` (by the low 32 bits, as
   * the rings compare calls). The call `p` back is kept while `p` is at most its index and under the
   * capacity; its slot is `p` before the newest's (one division per call, not one per period).
   */
  private newestRepeatsAPeriodBack(): boolean {
    const cap = this.capacity;
    const i = this.n - 1;
    const s = i % cap;
    const words = this.words;
    const b = this.wordBase + 1;
    const lo = words[b + 3 * s];
    const last = Math.min(this.retention.maxPeriod, i, cap - 1);
    for (let p = Math.max(1, this.retention.minPeriod); p <= last; p++) {
      // a collision keeps args, never loses them
      if (words[b + 3 * (s >= p ? s - p : s - p + cap)] === lo) return true;
    }
    return false;
  }

  private kept(index: number): boolean {
    return index >= 0 && index < this.n && index >= this.n - this.capacity;
  }

  /** Whether `index` is the newest call, not yet settled (its args are held apart). */
  private isCurrent(index: number): boolean {
    return this.curHeld !== Held.Released && index === this.n - 1;
  }

  /** Whether a settled call's args (and preview) are still in the ring. */
  private inRing(index: number): boolean {
    return index >= 0 && index < this.n && index >= this.n - this.argsWindow && this.heldAt(index % this.argsWindow) !== Held.Released;
  }

  /**
   * The indices of the calls whose args (or, past their check, previews) are held now, oldest first.
   * @internal For tests of what a session keeps.
   */
  heldArgs(): number[] {
    const out: number[] = [];
    for (let i = Math.max(0, this.n - this.argsWindow); i < this.n; i++) {
      if (this.isCurrent(i) ? this.cur !== undefined : this.inRing(i) && (this.heldAt(i % this.argsWindow) === Held.Preview || this.args?.[i % this.argsWindow] !== undefined)) out.push(i);
    }
    return out;
  }

  /**
   * The indices of the calls whose args themselves are held now (the newest, until its check is over;
   * more only with custom detectors), oldest first.
   * @internal For tests of what a session keeps.
   */
  heldArgValues(): number[] {
    const out: number[] = [];
    for (let i = Math.max(0, this.n - this.argsWindow); i < this.n; i++) {
      if (this.isCurrent(i) ? this.cur !== undefined : this.inRing(i) && this.args?.[i % this.argsWindow] !== undefined) out.push(i);
    }
    return out;
  }

  /** The low 32 bits of a call's signature, or undefined when it is no longer kept. */
  signatureLow(index: number): number | undefined {
    return this.kept(index) ? this.words[this.wordBase + 3 * (index % this.capacity) + 1] : undefined;
  }

  /**
   * The reference of a call (frozen), if it is still kept. Built each time it is asked for: only verdicts
   * read references, so a session keeps none (a column of them cost a session with verdicts ~170 B of
   * objects, arrays and strings: bench/session-objects.ts over real calls).
   */
  ref(index: number): CallRef | undefined {
    if (!this.kept(index)) return undefined;
    const s = index % this.capacity;
    const step = this.stepOf(s);
    const round = this.roundOf(s);
    return Object.freeze({
      index,
      tool: cutText(this.toolAt(s), SHOWN_TOOL_LENGTH),
      signature: toHex(this.words[this.wordBase + 3 * s] as number, this.words[this.wordBase + 3 * s + 1] as number),
      ...(Number.isNaN(step) ? {} : { step }),
      ...(Number.isNaN(round) ? {} : { round }),
    });
  }

  /** The args of a call as compared, if they are still kept (see the module comment). */
  argsOf(index: number): unknown {
    if (this.isCurrent(index)) {
      if (this.curHeld === Held.Raw) {
        this.cur = this.normaliser.normaliseArgs(this.cur, this.toolAt(index % this.capacity));
        this.curHeld = Held.Normalised;
      }
      return this.cur;
    }
    if (!this.inRing(index)) return undefined;
    const a = index % this.argsWindow;
    if (this.heldAt(a) === Held.Preview) return undefined;
    // held otherwise: args kept (keepAll), so both columns are there
    const args = this.args as unknown[];
    const held = this.held as Held[];
    if (held[a] === Held.Raw) {
      args[a] = this.normaliser.normaliseArgs(args[a], this.toolAt(index % this.capacity));
      held[a] = Held.Normalised;
    }
    return args[a];
  }

  /**
   * The args of a call as the outcome facts read them (policy/outcome-facts.ts): the newest call's args still
   * in their record's bytes, as they are, while nothing has normalised them (so no tool identity applies;
   * their members read as the parsed args' would, see JsonArgsText), or an object's still in a pool batch's
   * encoding (ArgsInBytes: its members decoded one at a time, the others never), and nothing will; else
   * {@link argsOf}.
   */
  factArgsOf(index: number): unknown {
    if (this.isCurrent(index) && this.curHeld === Held.Raw && this.retention.everyValue !== true && ((JsonArgsText.is(this.cur) && this.cur.membersNoted) || (ArgsInBytes.isArgsInBytes(this.cur) && this.cur.isObject))) return this.cur;
    return this.argsOf(index);
  }

  /** The preview of a call, or `call #N` (counted from 1, call-number.ts) when its args are no longer kept. */
  preview(index: number): string {
    if (this.isCurrent(index)) return (this.curPreview ??= this.previewOf(index));
    if (!this.inRing(index)) return callName(index);
    const a = index % this.argsWindow;
    const previews = (this.previews ??= new Array<string | undefined>(this.argsWindow));
    const kept = previews[a];
    if (kept === undefined) return (previews[a] = this.previewOf(index));
    const w = this.wordBase + 3 * (index % this.capacity) + 2;
    if (((this.words[w] as number) & TEXT_KEPT) === 0) return kept;
    // the args' JSON text kept by settle(): the preview replaces it
    this.words[w] = (this.words[w] as number) & ~TEXT_KEPT;
    const tool = this.toolAt(index % this.capacity);
    return (previews[a] = previewJsonCall(tool, kept) ?? previewCall(tool, this.normaliser.normaliseArgs(kept, tool)));
  }

  private previewOf(index: number): string {
    const s = index % this.capacity;
    const d = this.descriptions === null ? undefined : this.descriptions[s];
    if (d === undefined && this.isCurrent(index) && this.curHeld === Held.Raw && JsonArgsText.is(this.cur)) {
      // args still in their record's bytes: read from their text, unparsed, unless an identity applies
      const tool = this.toolAt(s);
      const fromText = this.normaliser.parsedAsIs?.(tool) === true ? previewJsonCall(tool, this.cur.text) : null;
      if (fromText !== null) return fromText;
    }
    return previewCall(this.toolAt(s), d ?? this.argsOf(index));
  }

  /**
   * Writes the kept calls for a snapshot: for the newest `argsWindow`, previews as they read now (`call #N`
   * for a call let go, as no message will read it). No args: sessions with custom detectors, the only
   * ones whose log keeps args, are not snapshotted.
   */
  save(w: ByteWriter): void {
    w.u32(this.capacity);
    w.u32(this.argsWindow);
    w.f64(this.n);
    for (let i = Math.max(0, this.n - this.capacity); i < this.n; i++) {
      const s = i % this.capacity;
      w.str(this.toolAt(s));
      w.optStr(this.descriptions === null ? undefined : this.descriptions[s]);
      w.u32(this.words[this.wordBase + 3 * s] as number);
      w.u32(this.words[this.wordBase + 3 * s + 1] as number);
      w.f64(this.stepOf(s));
      w.f64(this.roundOf(s));
      if (i < this.n - this.argsWindow) continue;
      w.str(this.preview(i));
    }
  }

  /**
   * Reads what save() wrote, replacing every call (all settled, in the ring). `oldArgs`, for a snapshot of
   * a format before ARGS_SUMMARIES_SINCE taken with similar args on: that log kept the args of its window
   * (`window + 1` calls of similar args', or more), read and handed to `oldArgs` by call index, not kept.
   * `namesFromZero`, for a snapshot of a format before CALL_NAMES_FROM_ONE_SINCE: a let-go call's preview
   * reads `call #i` counted from 0, renamed `call #N` counted from 1 as today's log writes it.
   */
  load(r: ByteReader, oldArgs: ((index: number, args: unknown) => void) | null = null, namesFromZero = false): void {
    const capacity = r.u32();
    if (capacity !== this.capacity) throw new SnapshotError(`loopwatch: the snapshot keeps ${capacity} calls where these options keep ${this.capacity}`);
    const window = r.u32();
    if (oldArgs === null ? window !== this.argsWindow : window < this.argsWindow || window > capacity) {
      throw new SnapshotError(`loopwatch: the snapshot keeps the args of ${window} calls where these options keep ${this.argsWindow}`);
    }
    const n = r.f64();
    if (!Number.isSafeInteger(n) || n < 0) throw new SnapshotError('loopwatch: the snapshot is corrupt (a call count that is not a count)');
    this.reset();
    for (let i = Math.max(0, n - this.capacity); i < n; i++) {
      const s = i % this.capacity;
      this.setTool(s, r.str());
      const d = r.optStr();
      if (d !== undefined) (this.descriptions ??= new Array<string | undefined>(this.capacity))[s] = d;
      this.words[this.wordBase + 3 * s] = r.u32();
      this.words[this.wordBase + 3 * s + 1] = r.u32();
      const step = r.f64();
      const round = r.f64();
      if (!Number.isNaN(step) || !Number.isNaN(round)) this.setStepRound(s, step, round);
      if (i < n - window) continue;
      const read = r.str();
      const preview = namesFromZero && read === `call #${i}` ? callName(i) : read;
      if (oldArgs !== null) oldArgs(i, readValue(r));
      if (i < n - this.argsWindow) continue;
      const a = i % this.argsWindow;
      (this.previews ??= new Array<string | undefined>(this.argsWindow))[a] = preview;
      if (this.retention.keepAll) {
        (this.args ??= new Array<unknown>(this.argsWindow))[a] = undefined;
        (this.held ??= new Array<Held>(this.argsWindow).fill(Held.Released))[a] = Held.Preview;
      }
    }
    this.n = n;
  }

  private undo: LogSlot | null = null;

  /** Remembers the slot the next push() overwrites (see Rewindable); settles the newest call first. */
  mark(): void {
    // settling is what the next push does first: doing it now leaves rollback() only the push to undo
    this.settle();
    const s = this.n % this.capacity;
    const a = this.n % this.argsWindow;
    this.undo = {
      n: this.n,
      // the log's half: the tool and TEXT_KEPT
      toolWord: (this.words[this.wordBase + 3 * s + 2] as number) & 0xffff,
      otherTool: this.otherTools?.[s],
      sigHi: this.words[this.wordBase + 3 * s] as number,
      sigLo: this.words[this.wordBase + 3 * s + 1] as number,
      description: this.descriptions?.[s],
      step: this.stepOf(s),
      round: this.roundOf(s),
      args: this.args?.[a],
      held: this.heldAt(a),
      preview: this.previews?.[a],
    };
  }

  /** Undoes the push() made since mark(). */
  rollback(): void {
    const u = this.undo;
    if (u === null) return;
    this.undo = null;
    const s = u.n % this.capacity;
    const a = u.n % this.argsWindow;
    this.n = u.n;
    this.curHeld = Held.Released;
    this.cur = undefined;
    this.curPreview = undefined;
    const t = this.wordBase + 3 * s + 2;
    this.words[t] = ((this.words[t] as number) & 0xffff0000) | u.toolWord;
    if (this.otherTools !== null) this.otherTools[s] = u.otherTool;
    this.words[this.wordBase + 3 * s] = u.sigHi;
    this.words[this.wordBase + 3 * s + 1] = u.sigLo;
    if (this.descriptions !== null) this.descriptions[s] = u.description;
    if (this.stepRounds !== null) this.setStepRound(s, u.step, u.round);
    if (this.args !== null) this.args[a] = u.args;
    if (this.held !== null) this.held[a] = u.held;
    if (this.previews !== null) this.previews[a] = u.preview;
  }

  /** Both words of a call's signature as a 16-digit hex string, or undefined when it is no longer kept. */
  signatureHex(index: number): string | undefined {
    if (!this.kept(index)) return undefined;
    const s = index % this.capacity;
    return toHex(this.words[this.wordBase + 3 * s] as number, this.words[this.wordBase + 3 * s + 1] as number);
  }

  /** Forgets every call. */
  reset(): void {
    this.undo = null;
    this.n = 0;
    this.curHeld = Held.Released;
    this.cur = undefined;
    this.curPreview = undefined;
    this.otherTools = null;
    this.args = null;
    this.held = null;
    this.previews = null;
    this.descriptions = null;
    this.stepRounds = null;
  }
}
