/**
 * What the built-in detectors share within one session: the fingerprint rings they read and the log of
 * call previews they name calls from.
 */
import type { HistoryReader } from '../state/call-history.js';
import type { CallLog } from '../state/call-log.js';

/** Shared per-session state handed to each built-in detector. */
export interface DetectorContext {
  /** Fingerprint rings of recent calls, written before detectors record. */
  readonly history: HistoryReader;
  /** Previews of recent calls, for patterns. */
  readonly log: CallLog;
}

/** Confidence capped to [0, 1] and rounded to 4 decimals, so verdicts print and compare cleanly. */
export function clampConfidence(c: number): number {
  const v = c < 0 ? 0 : c > 1 ? 1 : c;
  return Math.round(v * 10000) / 10000;
}

/** Indices from `a` to `b` inclusive. */
export function range(a: number, b: number): number[] {
  const out: number[] = [];
  for (let i = a; i <= b; i++) out.push(i);
  return out;
}

/** A built-in signal whose pattern text is made on first read (see {@link withPattern}). */
class PatternOnDemand {
  private text: string | undefined;

  constructor(private readonly describe: () => string) {}

  get pattern(): string {
    return (this.text ??= this.describe());
  }
}

/**
 * Gives a signal a pattern computed on first read: naming calls needs their previews, which is wasted on
 * the many signals the policy sets aside (results still changing). The pattern is a getter: read it
 * explicitly (as the policy does) rather than spreading the signal.
 */
export function withPattern<T extends object>(fields: T, pattern: () => string): T & { readonly pattern: string } {
  return Object.assign(new PatternOnDemand(pattern), fields) as unknown as T & { readonly pattern: string };
}
