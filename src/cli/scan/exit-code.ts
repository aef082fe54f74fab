/**
 * The exit code of a scan, in one place, in order of precedence (the first that applies):
 *
 * | code | when |
 * |---|---|
 * | 2 | a usage or config error (nothing was scanned; decided before this) |
 * | 130 | interrupted (Ctrl-C): the summary covers the input read before it |
 * | 2 | input was skipped (lines, elements, inputs, calls not checked), unless `--allow-skipped` |
 * | 2 | no tool call was found in the inputs, unless `--allow-empty` |
 * | 1 | some session reached `--fail-on` |
 * | 0 | otherwise |
 *
 * A failure of loopwatch itself is 3, whatever else held. Skipped input beats loops found: a scan that could
 * not read everything does not vouch for what it did not read; `--allow-skipped` makes a scan with skipped
 * lines exit on its findings alone (the skips are still named on stderr and counted).
 */

/** Exit code of an interrupted scan (128 + SIGINT). */
export const INTERRUPTED = 130;

/** What decides a scan's exit code. */
export interface ExitFacts {
  readonly interrupted: boolean;
  /** Lines, elements or inputs skipped, and calls not checked. */
  readonly skipped: number;
  /** Calls read. */
  readonly calls: number;
  /** Sessions that reached `--fail-on` (0 with `--fail-on never`). */
  readonly failing: number;
  readonly allowSkipped: boolean;
  readonly allowEmpty: boolean;
}

/** The exit code for `f`, and why, in words (null for 0 and 1). */
export function scanExitCode(f: ExitFacts): { readonly code: number; readonly why: string | null } {
  if (f.interrupted) return { code: INTERRUPTED, why: 'interrupted: the summary covers only the input read before Ctrl-C' };
  if (f.skipped > 0 && !f.allowSkipped) return { code: 2, why: `${f.skipped} ${f.skipped === 1 ? 'line, element, input or call was' : 'lines, elements, inputs or calls were'} skipped (named above; --allow-skipped to exit on the findings alone)` };
  if (f.calls === 0 && !f.allowEmpty) return { code: 2, why: 'no tool calls found in the inputs (folders are searched for .jsonl, .ndjson, .json, .traj and .eval files, optionally .gz; --allow-empty to accept)' };
  return { code: f.failing > 0 ? 1 : 0, why: null };
}
