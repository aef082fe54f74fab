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

/**
 * Whether `step` is the input's own number for the call at 0-based `index`: given, and not the index itself
 * (loopwatch numbers the calls of an input that gives no steps by their index, from 0, so such a step says
 * nothing a person's call number does not).
 */
export function ownStep(index: number, step: number | null | undefined): step is number {
  return step !== null && step !== undefined && step !== index;
}

/** `call #5`, or `call #5 (input's step 40)` when the input numbers the call itself ({@link ownStep}). */
export function callAt(index: number, step: number | null | undefined): string {
  return ownStep(index, step) ? `${callName(index)} (input's step ${step})` : callName(index);
}

/** Whether any of `calls` has a step of the input's own ({@link ownStep}): a step column is then worth showing. */
export function anyOwnStep(calls: readonly { readonly index: number; readonly step: number | null }[]): boolean {
  return calls.some((c) => ownStep(c.index, c.step));
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
