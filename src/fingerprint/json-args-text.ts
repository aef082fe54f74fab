/**
 * Args still in the bytes of the record they were read from: the JSON text of an object or array, as
 * `src/formats/event-line.ts` finds it in an events-format line (every byte ASCII, the JSON checked by the
 * module's reader, assembly/event-line.ts). The record writer copies the bytes into the module as they are
 * (no string made, none encoded back to UTF-8); the args as values are parsed only where something needs
 * them ({@link value}, what `parseArgs` gives), and the text only where a string is needed ({@link text}).
 *
 * The outcome facts read a few top-level members of a call's args (whether a shell command writes, the file
 * an edit names, the program a failed command ran: {@link ARG_MEMBERS}). The module notes where their values
 * are as it reads the record, so {@link member} decodes only that span. Where the module cannot be sure
 * (a member that is neither a string nor null, a key spelled with an escape), {@link member} reads the
 * parsed value instead: it always answers what `JSON.parse(text)[name]` would.
 *
 * Like a result read from a batch (RawJsonString), the bytes may be a view of a pool batch's buffer, which
 * goes back to the calling thread after the batch: nothing keeps these args past their call's check (the
 * call log makes kept ones into their text, see CallLog.settle).
 */

/** The args members the outcome facts read, in the module's AF_ order (assembly/abi.ts). */
export const ARG_MEMBERS: readonly string[] = Object.freeze(['command', 'cmd', 'file_path', 'path', 'notebook_path', 'filePath', 'target_file', 'filename', 'file', 'input', 'patch']);

/**
 * Args still in bytes (not JSON text) whose members the outcome facts read one at a time ({@link member}),
 * without the args made into values: wasm/encoded-args.ts's EncodedArgs, a pool batch's encoding of them.
 */
export abstract class ArgsInBytes {
  readonly #inBytes = true;

  /** Whether `v` is ArgsInBytes (a brand check: it runs no code of the value's, unlike `instanceof`). */
  static isArgsInBytes(v: unknown): v is ArgsInBytes {
    return typeof v === 'object' && v !== null && #inBytes in v;
  }

  /** Whether the args, as values, are a plain object (not an array, a string or a scalar). */
  abstract get isObject(): boolean;

  /** What `args[name]` gives of the args as values (an object's member; undefined where there is none). */
  abstract member(name: string): unknown;
}

const UNPARSED: unique symbol = Symbol('unparsed');

/** JSON args text in its record's bytes, with the members the outcome facts read noted by span. */
export class JsonArgsText {
  private parsed: unknown = UNPARSED;
  private textOf: string | undefined = undefined;
  readonly #brand = true;

  /**
   * `line`: the record's bytes; `start`, `end`: the args' JSON text in them; `spans`: for each member of
   * ARG_MEMBERS the record holds as a string, [its index in ARG_MEMBERS, start, end (quotes included),
   * 1 when it holds an escape else 0], or null when the members must be read from the parsed value.
   */
  constructor(
    private readonly line: Buffer,
    private readonly start: number,
    private readonly end: number,
    private readonly spans: readonly number[] | null,
  ) {}

  /** Whether `v` is JsonArgsText (without running any code of the value's, unlike `instanceof`). */
  static is(v: unknown): v is JsonArgsText {
    return typeof v === 'object' && v !== null && #brand in v;
  }

  /** The JSON text's bytes (a view of the record); throws once a pool batch's buffer has gone back. */
  get bytes(): Uint8Array {
    return this.held().subarray(this.start, this.end);
  }

  /** Copies the JSON text's bytes into `target` at `at` (no view made); throws as {@link bytes} does. */
  copyInto(target: Uint8Array, at: number): void {
    this.held().copy(target, at, this.start, this.end);
  }

  /** The text's length in bytes. */
  get length(): number {
    return this.end - this.start;
  }

  /** The record's bytes, while they are there. */
  private held(): Buffer {
    if (this.line.length < this.end) throw new Error('loopwatch: args were read after their batch went back to the calling thread (their bytes are gone)');
    return this.line;
  }

  /** The JSON text (made once). */
  get text(): string {
    this.textOf ??= this.held().latin1Slice(this.start, this.end);
    return this.textOf;
  }

  /** The args as JSON.parse makes them of the text (parsed once). */
  value(): unknown {
    if (this.parsed === UNPARSED) this.parsed = JSON.parse(this.text) as unknown;
    return this.parsed;
  }

  /** Whether the members were noted by the module (else {@link member} parses the args). */
  get membersNoted(): boolean {
    return this.spans !== null;
  }

  /** `JSON.parse(text)[name]` for a name of ARG_MEMBERS, decoded from its span alone where the module noted it. */
  member(name: string): unknown {
    const spans = this.spans;
    const m = ARG_MEMBERS.indexOf(name);
    if (spans === null || m < 0) return readMember(this.value(), name);
    for (let i = 0; i < spans.length; i += 4) {
      if (spans[i] !== m) continue;
      if (spans[i + 1] === -1) return null;
      const line = this.held();
      const s = spans[i + 1] as number;
      const e = spans[i + 2] as number;
      return spans[i + 3] === 0 ? line.latin1Slice(s + 1, e - 1) : (JSON.parse(line.latin1Slice(s, e)) as string);
    }
    return undefined;
  }
}

/** `v[name]` of parsed args (an own member only: JSON.parse makes no other). */
function readMember(v: unknown, name: string): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  return Object.hasOwn(v, name) ? (v as Record<string, unknown>)[name] : undefined;
}

/**
 * A member of a call's args as the outcome facts read it: from JsonArgsText's noted spans, from ArgsInBytes'
 * encoding, or `args[name]`
 * of args as values (any object: its getters may throw, as before).
 */
export function argMember(args: object, name: string): unknown {
  if (JsonArgsText.is(args)) return args.member(name);
  return ArgsInBytes.isArgsInBytes(args) ? args.member(name) : (args as Record<string, unknown>)[name];
}
