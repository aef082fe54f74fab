/**
 * A list of regular expressions asked as one: `anyPattern(ps)(t)` is `ps.some((p) => p.test(t))`, answered by
 * one expression a set of flags whose alternatives are the patterns with those flags (`(?:a)|(?:b)|...`) where
 * that is the same question: no pattern global or sticky (test would move their lastIndex), none with a
 * backreference or a named group (their numbers and names would change when joined). Otherwise the list is
 * asked one by one, as before. One pass over the text instead of one a pattern: the text screens of the
 * outcome facts (failure-kinds.ts, turn-rejection.ts, edit-mismatch.ts, acknowledgement.ts) cost 0.29-0.32x
 * over the traces' errors (perf35, /work/scratch/s21/perf35/merge.mjs).
 */

/** Pieces of a pattern's source that joining would renumber or rename: a numbered or named backreference, a named group. */
const UNJOINABLE = /\\[1-9]|\\k<|\(\?<(?![=!])/;

/** Whether `patterns` ask, joined (by their flags), what they ask one by one (see the module comment). */
export function joinable(patterns: readonly RegExp[]): boolean {
  return patterns.length > 0 && patterns.every((p) => !p.global && !p.sticky && !UNJOINABLE.test(p.source));
}

/** A test of whether any of `patterns` matches a text: one joined expression a set of flags where {@link joinable}, else each in turn. */
export function anyPattern(patterns: readonly RegExp[]): (text: string) => boolean {
  if (!joinable(patterns)) return (text) => patterns.some((p) => p.test(text));
  const byFlags = new Map<string, string[]>();
  for (const p of patterns) {
    const sources = byFlags.get(p.flags);
    if (sources === undefined) byFlags.set(p.flags, [`(?:${p.source})`]);
    else sources.push(`(?:${p.source})`);
  }
  const joined = [...byFlags].map(([flags, sources]) => new RegExp(sources.join('|'), flags));
  if (joined.length === 1) {
    const one = joined[0] as RegExp;
    return (text) => one.test(text);
  }
  return (text) => joined.some((p) => p.test(text));
}
