/** Checked values of command-line flags: an error names the flag, the rule and what was received. */
import { UsageError } from './usage-error.js';

/**
 * The integer `text` of `flag` (digits only), `fallback` when absent. Throws UsageError below `min` or
 * above `max` (the message gives the range, or the minimum when there is no maximum).
 */
export function integerFlag(flag: string, text: string | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (text === undefined) return fallback;
  const v = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(v) || v < min || v > max) {
    const rule = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`${flag} must be an integer ${rule}, received "${text}"`);
  }
  return v;
}

/** The value `text` of `flag`, one of `values`, `fallback` when absent. Throws UsageError otherwise. */
export function choiceFlag<T extends string>(flag: string, text: string | undefined, fallback: T, values: readonly T[]): T {
  if (text === undefined) return fallback;
  if (!(values as readonly string[]).includes(text)) throw new UsageError(`${flag} must be one of ${values.join(', ')}, received "${text}"`);
  return text as T;
}
