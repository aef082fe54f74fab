/**
 * What the engine's module read of a call in its own pass over the call's record, as the call's output gave
 * it: the head of its result (assembly/result-head.ts: the key and the report scan result-reading.ts would
 * take of it) and the key of its error text (for error-reading.ts's cache), with what the record writer
 * found of the error. The outcome facts read the call from these instead of reading its texts again.
 */
export interface ModuleReading {
  /** The call the reading is of (its index in its session); -1 for none. */
  index: number;
  /** The output's head word: reportScan's bits, with HEAD_READ (0: not read) and HEAD_ACKED (the acknowledgement's words looked for). */
  word: number;
  /** The head's key (what module-report-scan.ts's textKey gives for it). */
  key: number;
  /** The error text's key (53 bits of the module's hash of it); meaningful for a call with an error only. */
  errorKey: number;
  /**
   * Whether the error may say something error-reading.ts reads: the module's screen of it (assembly/error-screen.ts,
   * the twin of error-screen.ts's ERROR_SCREEN); false only where it holds none of MAY_SAY's words. Meaningful for a call with an error only.
   */
  errorMaySay: boolean;
  /** Whether the error is an infrastructure failure (infra-failure.ts), as the record writer found it. */
  infra: boolean;
}
