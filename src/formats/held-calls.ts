/**
 * The calls of one session of a streamed format (one record per line, a call's outcome on a later line:
 * Claude Code, Codex, hook logs, OpenHands), held in call order only until their outcome is known and then
 * released in that order. Memory is bounded: at most `maxHeld` calls wait; past that the oldest is released
 * without its outcome (a result naming it later is then unpaired), so a call whose result never comes holds
 * back at most that many others.
 *
 * ```
 *   hold(a) hold(b) hold(c)     settle(b)      settle(a)           release() -> a, b   (c still waits)
 *   [a? b? c?]                  [a? b! c?]     [a! b! c?]
 * ```
 */
import { toolEvent } from './session-calls.js';
import { Fifo } from './fifo.js';
import type { ErrorInfo, TraceCall } from './trace-record.js';

/** Calls of one session waiting for their outcome, at most. */
export const MAX_HELD_CALLS = 1024;

/** What a call's result says. */
export interface Outcome {
  readonly result: unknown;
  /** The failure, when `errorInfo` is `known`. */
  readonly error?: unknown;
  readonly errorInfo: ErrorInfo;
}

/** A call as a reader meets it. */
export interface CallStart {
  readonly tool: string;
  /** The arguments; undefined when the format did not record them. */
  readonly args?: unknown;
  readonly text?: string;
  readonly round?: number;
  /** Where the call's record is. */
  readonly file: string;
  readonly line: number;
}

/** A call waiting in the queue; its `text` may still be set, and its `tool` and `args` by {@link HeldCalls.settle}. */
export interface HeldCall extends CallStart {
  tool: string;
  args?: unknown;
  text?: string;
  outcome: Outcome | null;
  readonly id: string | undefined;
  /** A person's prompt came before it, after the session's previous call (TraceCall.prompted). */
  readonly prompted: boolean;
}

/** The held calls of one session. */
export class HeldCalls {
  private readonly queue = new Fifo<HeldCall>();
  /** Calls without their outcome by id, oldest first (a call released without one is its id's oldest). */
  private readonly waiting = new Map<string, Fifo<HeldCall>>();
  /** A prompt was read since the last call held: the next call held is `prompted`. */
  private promptSeen = false;
  /** A call was held. */
  private any = false;

  constructor(
    /** Session id, put into every call released. */
    readonly session: string,
    private readonly maxHeld: number = MAX_HELD_CALLS,
  ) {}

  /** Calls held. */
  get size(): number {
    return this.queue.length;
  }

  /**
   * Says that a person's typed prompt was read (a turn boundary, where an agent's hook gives the session a
   * fresh start): the next call held is released `prompted` (none before the session's first call;
   * `afterCalls` says whether the session had calls, for a reader that made these held calls anew).
   */
  prompt(afterCalls: boolean = this.any): void {
    this.promptSeen = afterCalls; // before the session's first call there is nothing to start afresh
  }

  /** Holds a call; `id` pairs it with its outcome (none: it waits only for `outcome`, if given now). */
  hold(id: string | undefined, start: CallStart, outcome: Outcome | null = null): HeldCall {
    const held: HeldCall = { ...start, id, outcome, prompted: this.promptSeen };
    this.promptSeen = false;
    this.any = true;
    this.queue.push(held);
    if (id !== undefined && outcome === null) {
      let q = this.waiting.get(id);
      if (q === undefined) this.waiting.set(id, (q = new Fifo()));
      q.push(held);
    }
    return held;
  }

  /** The tool of the oldest call waiting under `id` (the one {@link settle} would settle), if any. */
  waitingTool(id: string): string | undefined {
    return this.waiting.get(id)?.peek()?.tool;
  }

  /**
   * Gives the oldest call waiting under `id` its outcome (and, from a format whose last word on a call is the
   * authoritative one, its final tool and args, the args kept when it has none); false when no call waits under it.
   */
  settle(id: string, outcome: Outcome, final?: Pick<CallStart, 'tool' | 'args'>): boolean {
    const q = this.waiting.get(id);
    const held = q?.shift();
    if (held === undefined) return false;
    if (q!.length === 0) this.waiting.delete(id);
    held.outcome = outcome;
    if (final !== undefined) {
      held.tool = final.tool;
      if (final.args !== undefined) held.args = final.args; // a final word without args keeps the earlier ones
    }
    return true;
  }

  /**
   * Forgets the oldest call waiting under `id` without its outcome (it did not run: a person declined it);
   * false when no call waits under it (a call that has its outcome is never forgotten).
   */
  forget(id: string): boolean {
    const q = this.waiting.get(id);
    const held = q?.shift();
    if (held === undefined) return false;
    if (q!.length === 0) this.waiting.delete(id);
    this.queue.remove(held);
    return true;
  }

  /** Forgets every call still waiting for its outcome (none of them ran, or none will say so: see {@link forget}). */
  forgetWaiting(): void {
    for (const q of this.waiting.values()) for (let held = q.shift(); held !== undefined; held = q.shift()) this.queue.remove(held);
    this.waiting.clear();
  }

  /** Releases the calls at the head that have their outcome, then the oldest past `maxHeld` without it. */
  *release(): Generator<TraceCall> {
    while (this.queue.length > 0 && (this.queue.peek()!.outcome !== null || this.queue.length > this.maxHeld)) yield this.out(this.queue.shift()!);
  }

  /** Releases every call held, in call order. */
  *releaseAll(): Generator<TraceCall> {
    while (this.queue.length > 0) yield this.out(this.queue.shift()!);
  }

  private out(c: HeldCall): TraceCall {
    if (c.outcome === null && c.id !== undefined) {
      const q = this.waiting.get(c.id);
      q?.remove(c);
      if (q?.length === 0) this.waiting.delete(c.id);
    }
    const o = c.outcome;
    const event = toolEvent(c.tool, c.args, o?.result, o?.errorInfo === 'known' ? o.error : undefined, c.text, undefined, c.round);
    const errorInfo = o?.errorInfo ?? 'unknown';
    return c.prompted ? { kind: 'call', session: this.session, event, errorInfo, file: c.file, line: c.line, prompted: true } : { kind: 'call', session: this.session, event, errorInfo, file: c.file, line: c.line };
  }
}

/** A known failure: `error` is the result text, or true when it has none. */
export function failure(result: unknown): Outcome {
  return { result, error: typeof result === 'string' && result !== '' ? result : true, errorInfo: 'known' };
}
