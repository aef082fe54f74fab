/**
 * Tool results read before their call. Claude Code 2.1.88 to 2.1.104 sometimes writes a `tool_result`
 * line one to three lines before the assistant line holding its `tool_use` (the result is appended when
 * the tool ends, the call's line when its message is flushed, a moment later). A result naming an id no
 * call has shown yet is held here for at most {@link EARLY_RESULT_LINES} records; its call arriving within
 * them takes its outcome. A result whose call never comes is reported (`unpaired-result`, at the result's
 * own line) once it is past that bound, or when the input ends.
 *
 * ```
 *   line 161  assistant  thinking            (message m, first line)
 *   line 162  user       tool_result t1      -> held: no call t1 yet
 *   line 163  assistant  tool_use t1         -> take(t1): the call is read with its outcome
 * ```
 *
 * Memory is bounded: at most {@link MAX_EARLY_RESULTS} results wait; past that the oldest is reported.
 */
import type { Outcome } from './held-calls.js';
import { type TraceIssue, issue } from './trace-record.js';

/** Records a result waits for its call at most. */
export const EARLY_RESULT_LINES = 16;

/** Results waiting for their call at most (the oldest is reported first). */
export const MAX_EARLY_RESULTS = 64;

/** A result waiting for its call. */
interface Early {
  readonly outcome: Outcome;
  readonly file: string;
  readonly line: number;
  /** The record count when it was read. */
  readonly at: number;
  /** What to say if its call never comes. */
  readonly message: string;
}

/** Results read before their call, in the order read. */
export class EarlyResults {
  private readonly held = new Map<string, Early>();
  private records = 0;

  constructor(
    private readonly lines: number = EARLY_RESULT_LINES,
    private readonly max: number = MAX_EARLY_RESULTS,
  ) {}

  /** Results waiting. */
  get size(): number {
    return this.held.size;
  }

  /** Counts one record read; yields an issue for each result that has now waited past the bound. */
  *tick(): Generator<TraceIssue> {
    this.records++;
    for (const [id, e] of this.held) {
      if (this.records - e.at <= this.lines) break; // held in reading order: the rest are younger
      this.held.delete(id);
      yield this.unpaired(e);
    }
  }

  /**
   * Holds the result for call `id`, read at `file`:`line`; `message` is what an `unpaired-result` issue
   * says if its call never comes. Yields the issue of a result pushed out (the oldest past the bound on
   * results held, or an earlier result for the same id, which is then unpaired).
   */
  *hold(id: string, outcome: Outcome, file: string, line: number, message: string): Generator<TraceIssue> {
    const before = this.held.get(id);
    if (before !== undefined) {
      this.held.delete(id);
      yield this.unpaired(before);
    }
    this.held.set(id, { outcome, file, line, at: this.records, message });
    if (this.held.size > this.max) {
      const [oldest, e] = this.held.entries().next().value!;
      this.held.delete(oldest);
      yield this.unpaired(e);
    }
  }

  /** The outcome held for call `id`, taken out; undefined when none waits. */
  take(id: string): Outcome | undefined {
    const e = this.held.get(id);
    if (e === undefined) return undefined;
    this.held.delete(id);
    return e.outcome;
  }

  /** Yields an issue for every result still waiting (the input has ended). */
  *flush(): Generator<TraceIssue> {
    for (const e of this.held.values()) yield this.unpaired(e);
    this.held.clear();
  }

  private unpaired(e: Early): TraceIssue {
    return issue('unpaired-result', e.file, e.line, e.message);
  }
}
