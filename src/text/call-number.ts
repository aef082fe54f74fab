/**
 * Call numbers as a person reads them. loopwatch's data numbers a session's calls from 0: a verdict's
 * `index`, `loopStart` and `unit`, and the same fields of `--json`, `--jsonl` and serve's answers, kept so
 * for the code that reads them. Every text a person reads (a verdict's message, scan's summary, its
 * Markdown and HTML report, explain) counts from 1: "call #1" is the session's first call, "since call
 * #1" a loop that began there. A step the input itself gives a call is shown as the input numbers it
 * (`step 7`). Pure: the HTML report's page script bundles it too.
 */

/** The number a person reads for the call at 0-based `index`: 1 for a session's first call. */
export function callNumber(index: number): number {
  return index + 1;
}

/** `call #N` for the call at 0-based `index` (`call #1`: the session's first call). */
export function callName(index: number): string {
  return `call #${callNumber(index)}`;
}

/** Where a session's first loop began and the call it was flagged at, each named for a person. */
export interface LoopBegan {
  /** `call #1` or `step 4`. */
  readonly from: string;
  /** `call #3` or `step 6`. */
  readonly at: string;
}

/**
 * Where a session's first loop began (the call at index `start`, its input's step `startStep`, null when no
 * longer known) and the call it was flagged at (index `flagged`, step `flaggedStep`): by the input's own
 * steps when it gives them (`step 4`, `step 6`), else by call number (`call #1`, `call #3`). The steps are
 * the input's own when they differ from the calls' indices at either call (a step equal to its index is
 * how loopwatch numbers the calls of an input that gives none); a start whose step is no longer known is
 * named by its call number.
 */
export function loopBegan(start: number, startStep: number | null, flagged: number, flaggedStep: number): LoopBegan {
  const steps = flaggedStep !== flagged || (startStep !== null && startStep !== start);
  return { from: steps && startStep !== null ? `step ${startStep}` : callName(start), at: steps ? `step ${flaggedStep}` : callName(flagged) };
}

/** {@link loopBegan} as a line of text: `call #1, flagged at call #3`. */
export function loopBeganText(start: number, startStep: number | null, flagged: number, flaggedStep: number): string {
  const b = loopBegan(start, startStep, flagged, flaggedStep);
  return `${b.from}, flagged at ${b.at}`;
}
