/**
 * The command line of a CLI command: flags parsed with `node:util` parseArgs, and their values checked. Every
 * error is one line naming the flag, the rule and what was received; an unknown flag gets the closest known
 * one ("did you mean").
 */
import { BYTE_SIZE_SPELLING, parseByteSize } from '../text/byte-size.js';
import { parseArgs } from 'node:util';
import { closestName } from '../options/checks.js';
import { UsageError } from './usage-error.js';

/** A command's flags, as parseArgs takes them. */
export type FlagSpec = Record<string, { readonly type: 'string' | 'boolean'; readonly short?: string; readonly multiple?: boolean }>;

/** The parsed flags (string or boolean values, arrays for `multiple`) and the positionals. */
export interface ParsedFlags {
  readonly values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  readonly positionals: string[];
}

/** Parses `args` against `spec`. Throws UsageError: unknown flag (with a suggestion), missing value, stray value. */
export function parseFlags(args: readonly string[], spec: FlagSpec, allowPositionals: boolean): ParsedFlags {
  try {
    return parseArgs({ args: [...args], options: spec, allowPositionals, strict: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const message = (e as Error).message;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const flag = /'(-[^']*)'/.exec(message)?.[1] ?? message;
      // parseArgs names the flag before its first `=`: `=.*$` (quadratic in a run of `=` and line breaks) sees one only in `-=`
      const name = flag.replace(/^-+/, '').replace(/=.*$/, '');
      const best = closestName(name, Object.keys(spec));
      throw new UsageError(`unknown flag ${flag}${best === undefined ? '' : ` (did you mean --${best}?)`}`);
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const flag = /'(--?[\w-]+)/.exec(message)?.[1];
      if (flag !== undefined && message.includes('argument missing')) throw new UsageError(`${flag} needs a value`);
      if (flag !== undefined && message.includes('ambiguous')) throw new UsageError(`${flag} needs a value (write ${flag}=VALUE for one that starts with -)`);
      if (flag !== undefined && message.includes('does not take an argument')) throw new UsageError(`${flag} takes no value`);
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      const arg = /'([^']*)'/.exec(message)?.[1] ?? '';
      throw new UsageError(`unexpected argument "${arg}" (this command takes no paths)`);
    }
    throw new UsageError(message);
  }
}

/**
 * The integer `text` of `flag` (digits only), `fallback` when absent. Throws UsageError below `min` or
 * above `max` (the message gives the range, or the minimum when there is no maximum).
 */
export function integerFlag(flag: string, text: string | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (text === undefined) return fallback;
  const v = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(v) || v < min || v > max) {
    const rule = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max.toLocaleString('en-US')}`;
    throw new UsageError(`${flag} must be an integer ${rule}, received "${text}"`);
  }
  return v;
}

/**
 * The size in bytes `text` of `flag` (src/text/byte-size.ts: `4194304`, `64M`, `2GiB`), `fallback` when
 * absent. Throws UsageError for what is no size, or one below `min` or above `max`, in integerFlag's words.
 */
export function byteSizeFlag(flag: string, text: string | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (text === undefined) return fallback;
  const v = parseByteSize(text);
  if (v === null || v < min || v > max) {
    const rule = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max.toLocaleString('en-US')}`;
    throw new UsageError(`${flag} must be an integer ${rule} bytes (${BYTE_SIZE_SPELLING}), received "${text}"`);
  }
  return v;
}

/** The value `text` of `flag`, one of `values`, `fallback` when absent. Throws UsageError otherwise. */
export function choiceFlag<T extends string>(flag: string, text: string | undefined, fallback: T, values: readonly T[]): T {
  if (text === undefined) return fallback;
  if (!(values as readonly string[]).includes(text)) {
    const best = closestName(text, values);
    throw new UsageError(`${flag} must be one of ${values.join(', ')}, received "${text}"${best === undefined ? '' : ` (did you mean ${best}?)`}`);
  }
  return text as T;
}

/** The values of a list flag (`--kind a,b --kind c`), each one of `values`; null when absent. */
export function listFlag<T extends string>(flag: string, texts: readonly string[] | undefined, values: readonly T[]): T[] | null {
  if (texts === undefined || texts.length === 0) return null;
  const out: T[] = [];
  for (const t of texts.flatMap((x) => x.split(','))) {
    const v = choiceFlag(flag, t.trim(), values[0] as T, values);
    if (!out.includes(v)) out.push(v);
  }
  return out;
}

/** The string value of `name` in `values`, or undefined. */
export function stringOf(values: ParsedFlags['values'], name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}
