/**
 * The signature of a tool call: a 64-bit fingerprint of (tool name, canonical args).
 * `signature = avalanche(round(round(CALL, fp(tool)), fp(args)))`.
 */
import { DEFAULT_MAX_DEPTH, type CanonicalWalkOptions, hashString, hashValue } from './canonical-hash.js';
import { Tag, combine2 } from './combine.js';
import { toHex, u64 } from './u64.js';
import { JsonArgsText } from './json-args-text.js';

/**
 * Args as compared: a string that holds a JSON object or array (as OpenAI delivers tool arguments) is
 * parsed, as is such text still in its record's bytes (JsonArgsText); any other string stays a plain
 * string; other values are used as they are.
 */
export function parseArgs(args: unknown): unknown {
  if (typeof args !== 'string') return JsonArgsText.is(args) ? args.value() : args;
  let i = 0;
  while (i < args.length && (args.charCodeAt(i) === 32 || args.charCodeAt(i) === 9 || args.charCodeAt(i) === 10 || args.charCodeAt(i) === 13)) i++;
  const c = args.charCodeAt(i);
  if (c !== 123 && c !== 91) return args;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

/** Signature words from the tool's fingerprint and parsed args. Returns the low word; high in `u64.hi`. */
export function signatureFrom(toolHi: number, toolLo: number, args: unknown, walk: CanonicalWalkOptions): number {
  const argsLo = hashValue(args, walk);
  return combine2(Tag.CALL, toolHi, toolLo, u64.hi, argsLo);
}

/** Options of {@link callSignature}. */
export interface SignatureOptions {
  /** Argument fields ignored at every depth. @default [] */
  readonly ignoreFields?: readonly string[];
  /** Containers nested deeper than this are hashed as one marker. @default 64 */
  readonly maxDepth?: number;
}

/**
 * The canonical signature of a call as 16 hex digits: the value loopwatch compares calls by.
 * Key order, `1` vs `1.0`, and args given as an object or as its JSON text make no difference.
 */
export function callSignature(tool: string, args: unknown, options: SignatureOptions = {}): string {
  const fields = options.ignoreFields ?? [];
  const walk: CanonicalWalkOptions = { ignoreKeys: fields.length === 0 ? null : new Set(fields), maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH };
  const tl = hashString(tool);
  const lo = signatureFrom(u64.hi, tl, parseArgs(args), walk);
  return toHex(u64.hi, lo);
}
