/**
 * Whether a unit's repetitions were interleaved with new work (an edit before each re-run of a test): the
 * policy climbs such a loop at `interleavedStep` (verdict-policy.ts), and a proposal is not blocked on the
 * same call's earlier runs alone when they were (src/live/evidence.ts).
 */
import type { PolicyLog } from './policy-log.js';

/** Calls looked at between a unit's repetitions; a longer span counts as interleaved with new work. */
export const INTERLEAVE_SPAN = 256;

/**
 * Whether the repetitions of a unit (ascending call indices) were interleaved with new work: between the
 * first and the last, at least one call per gap that is not a repetition and whose call (signature) the
 * span had not seen before, as when an agent edits something new before each re-run of its test.
 * Signatures are compared by their low 32 bits (a collision only undercounts new work).
 */
export function interleavedWithNewWork(log: PolicyLog, unit: readonly number[]): boolean {
  if (unit.length < 2) return false;
  const first = unit[0] as number;
  const last = unit[unit.length - 1] as number;
  if (last - first > INTERLEAVE_SPAN) return true;
  const seen = new Set<number>();
  let next = 0;
  let novel = 0;
  for (let i = first; i < last; i++) {
    const sig = log.signatureLow(i);
    if (sig === undefined) continue;
    if (i === unit[next]) next++;
    else if (!seen.has(sig)) novel++;
    seen.add(sig);
  }
  return novel >= unit.length - 1;
}
