/**
 * The calls of one conversation, held until the conversation has been read, so that results can be paired
 * with their calls by id: a result names its call's id (`tool_call_id`, `call_id`, `tool_use_id`); a call
 * whose result never comes is emitted without one. Calls come out in call order, with `step` set to the
 * step the input gives the call (ATIF's `step_id`), else to their 0-based position, then the session's end.
 */
import type { ToolEvent } from '../types.js';
import { Fifo } from './fifo.js';
import { type ErrorInfo, type TraceEnd, type TraceCall, type TraceIssue, issue } from './trace-record.js';

/** A call's fields as a reader knows them when it meets the call. */
export interface CallFields {
  readonly tool: string;
  readonly args?: unknown;
  readonly text?: string;
  readonly round?: number;
  /** The input's own step number for the call, when the format numbers its steps (ATIF's `step_id`); else its position. */
  readonly step?: number;
}

interface Held {
  readonly fields: CallFields;
  /** The id its result names, when it has one. */
  readonly id: string | undefined;
  text: string | undefined;
  outcome: { readonly result: unknown; readonly error: unknown; readonly errorInfo: ErrorInfo } | null;
}

/** The calls of one session of a conversation format. */
export class SessionCalls {
  private readonly calls: Held[] = [];
  /**
   * Positions of the calls waiting for their result by id, oldest first. A call answered by its place
   * (resultAt) stays in its queue until it reaches the front, where it is dropped: the front of a queue is
   * always a call still waiting, and each position is taken off once (a search of the queue per answer was
   * quadratic: one ATIF step of 160,000 calls sharing an id, 18 CPU-s).
   */
  private readonly waiting = new Map<string, Fifo<number>>();

  /** `session`, `file` and `line` (the conversation's) go into every item. */
  constructor(
    readonly session: string,
    private readonly file: string,
    private readonly line: number,
  ) {}

  /** Holds a call; `id` pairs it with its result (calls without id get none). Returns its position. Until a result comes, its errorInfo is `unknown`. */
  call(id: string | undefined, fields: CallFields): number {
    const n = this.calls.length;
    this.calls.push({ fields, id, text: fields.text, outcome: null });
    if (id !== undefined) {
      let queue = this.waiting.get(id);
      if (queue === undefined) this.waiting.set(id, (queue = new Fifo()));
      queue.push(n);
    }
    return n;
  }

  /** Sets the text of the call at `position` (text known only after the call, as in Responses turns). */
  setText(position: number, text: string | undefined): void {
    const c = this.calls[position];
    if (c !== undefined) c.text = text;
  }

  /** Whether a call of id `id` is still waiting for its result. */
  waits(id: string): boolean {
    return this.waiting.has(id);
  }

  /**
   * Pairs a result with the oldest call of that id still waiting for one. Returns an `unpaired-result` issue
   * when there is none (what it names is skipped).
   */
  result(id: string, result: unknown, errorInfo: ErrorInfo, error?: unknown): TraceIssue | null {
    const queue = this.waiting.get(id);
    const n = queue?.shift();
    if (n === undefined) return issue('unpaired-result', this.file, this.line, `result for call id ${JSON.stringify(id)} has no call in session ${JSON.stringify(this.session)}; skipped`);
    this.calls[n]!.outcome = { result, error, errorInfo };
    this.dropAnswered(id, queue!);
    return null;
  }

  /** Whether the call at `position` has its result. */
  answered(position: number): boolean {
    return this.calls[position]?.outcome !== null;
  }

  /**
   * Gives the call at `position` its result, for formats whose results name no id but the place they answer
   * (ATIF's step-level results): it no longer waits for a result by its id.
   */
  resultAt(position: number, result: unknown, errorInfo: ErrorInfo, error?: unknown): void {
    const c = this.calls[position];
    if (c === undefined) return;
    c.outcome = { result, error, errorInfo };
    if (c.id === undefined) return;
    const queue = this.waiting.get(c.id);
    if (queue !== undefined) this.dropAnswered(c.id, queue);
  }

  /** Takes the calls already answered off the front of `queue` (id `id`'s), and the queue away once empty. */
  private dropAnswered(id: string, queue: Fifo<number>): void {
    for (let n = queue.peek(); n !== undefined && this.calls[n]!.outcome !== null; n = queue.peek()) queue.shift();
    if (queue.length === 0) this.waiting.delete(id);
  }

  /** The calls in call order, then the session's end. */
  *items(): Generator<TraceCall | TraceEnd> {
    for (let position = 0; position < this.calls.length; position++) {
      const c = this.calls[position]!;
      const o = c.outcome;
      const event: ToolEvent = toolEvent(c.fields.tool, c.fields.args, o?.result, o?.error, c.text, c.fields.step ?? position, c.fields.round);
      yield { kind: 'call', session: this.session, event, errorInfo: o?.errorInfo ?? 'unknown', file: this.file, line: this.line };
    }
    yield { kind: 'end', session: this.session, file: this.file };
  }
}

/** A ToolEvent with only the fields that are set. */
export function toolEvent(tool: string, args: unknown, result: unknown, error: unknown, text: string | undefined, step: number | undefined, round: number | undefined): ToolEvent {
  const e: { -readonly [K in keyof ToolEvent]: ToolEvent[K] } = { tool };
  if (args !== undefined) e.args = args;
  if (result !== undefined) e.result = result;
  if (error !== undefined) e.error = error;
  if (text !== undefined) e.text = text;
  if (step !== undefined) e.step = step;
  if (round !== undefined) e.round = round;
  return e;
}
