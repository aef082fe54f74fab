/**
 * What every SDK adapter shares, so each adapter is only the codec for its SDK: the guard surface it needs,
 * a tool call run between its proposal and its record, a tool result of any shape turned into capped text,
 * and proposals remembered by call id for SDKs that ask "may it run?" and run it in two separate callbacks.
 *
 * ```
 *   runChecked(guard, session, call, run)
 *     propose ── deny | stop ──> { blocked: decision }                 (the tool never runs)
 *        └── allow | warn | ask ──> run() ──> record(result) ──> { value, notes }   (notes: messages for the model)
 *                                      └─ throws ──> record(error) ──> { error, notes }
 * ```
 */
import type { LiveCall, LiveDecision } from '../live/live-call.js';
import { FULL_REACH, type HostReach, hostMessage } from '../live/host-message.js';
import { outcomeJson, outcomeString } from '../text/outcome-text.js';

/** The part of a LiveGuard an adapter uses (structural, so a guard from another copy of loopwatch works too). */
export interface AdapterGuard {
  propose(session: string, call: LiveCall): LiveDecision;
  record(session: string, call: LiveCall): LiveDecision;
  stopped(session: string): LiveDecision | undefined;
}

/** An AbortSignal, as far as the adapters read it (structural: the published types need neither Node's nor the DOM's). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** An AbortController, as far as the adapters use it (structural, as AbortSignalLike). */
export interface AbortControllerLike {
  abort(reason?: unknown): void;
}

/** Characters of a tool's outcome that are recorded at most (the rest is cut before any check sees it). */
export const MAX_OUTCOME_CHARS = 16_384;

/** Proposals remembered by call id at most, per adapter instance (the oldest is forgotten first). */
export const MAX_REMEMBERED_CALLS = 256;

/**
 * A tool's result or error as text loopwatch can record: a string as it is, an Error as its name and message,
 * anything else as JSON (or String() when it is not JSON; past the outcome text's bounds its fingerprint in
 * letters: text/outcome-text.ts outcomeJson), cut to MAX_OUTCOME_CHARS. Never throws.
 */
export function outcomeText(value: unknown): string {
  let text: string;
  try {
    if (typeof value === 'string') text = value;
    else if (value instanceof Error) text = `${value.name}: ${value.message}`;
    else text = outcomeJson(value, false) ?? outcomeString(value);
  } catch {
    text = safeString(value);
  }
  return text.length > MAX_OUTCOME_CHARS ? text.slice(0, MAX_OUTCOME_CHARS) : text;
}

/** What a value is recorded as when nothing of it can be read (a revoked Proxy answers no question). */
export const UNREADABLE_OUTCOME = '[a value that cannot be read]';

function safeString(value: unknown): string {
  try {
    return outcomeString(value);
  } catch {
    try {
      return Object.prototype.toString.call(value);
    } catch {
      return UNREADABLE_OUTCOME;
    }
  }
}

/** `text` with the messages for the model appended, one paragraph each. */
export function withNotes(text: string, notes: readonly string[]): string {
  return notes.length === 0 ? text : [text, ...notes].join('\n\n');
}

/** What runChecked did with a call: blocked before it ran, or ran (with its value or error, and messages for the model). */
export type Checked<T> =
  | { readonly blocked: LiveDecision }
  | { readonly blocked?: undefined; readonly failed: false; readonly value: T; readonly notes: string[] }
  | { readonly blocked?: undefined; readonly failed: true; readonly error: unknown; readonly notes: string[] };

/**
 * Runs one tool call between its proposal and its record. `proposed` is the call's proposal when the adapter
 * already made it (for the SDK's approval callback); `ask` is then taken as answered by the SDK. A `deny` or
 * `stop` returns `{ blocked }` without running the tool; otherwise the tool runs, its outcome (value or thrown
 * error) is recorded, and the messages the model should see (the proposal's warning, the record's) come back
 * as `notes`. Never throws: the tool's error comes back as `error`.
 */
export async function runChecked<T>(
  guard: AdapterGuard,
  session: string,
  call: LiveCall,
  run: () => T | PromiseLike<T>,
  proposed?: LiveDecision,
  reach: HostReach = FULL_REACH,
): Promise<Checked<T>> {
  const p = proposed ?? guard.propose(session, call);
  if (p.action === 'deny' || p.action === 'stop') return { blocked: p };
  try {
    const value = await run();
    return { failed: false, value, notes: notesOf(p, guard.record(session, { ...call, result: outcomeText(value) }), reach) };
  } catch (error) {
    return { failed: true, error, notes: notesOf(p, guard.record(session, { ...call, error: outcomeText(error) }), reach) };
  }
}

/**
 * The messages for the model after a call ran: its proposal's (warn, ask) and its record's (warn), as
 * true for a host of `reach` (an ask without an approval step does not say a human was asked).
 */
export function notesOf(proposal: LiveDecision | undefined, record: LiveDecision, reach: HostReach = FULL_REACH): string[] {
  const notes: string[] = [];
  const said = proposal === undefined || proposal.action === 'allow' ? undefined : hostMessage(proposal, reach);
  if (said !== undefined) notes.push(said);
  if (record.action === 'warn' && record.message !== undefined) notes.push(record.message);
  return notes;
}

/**
 * The error to hand the SDK for a tool that threw: the tool's own error when there is nothing to add, else an
 * Error whose message is the tool's with the notes appended (the original as its `cause`).
 */
export function errorWithNotes(error: unknown, notes: readonly string[]): unknown {
  if (notes.length === 0) return error;
  let message: string;
  try {
    message = error instanceof Error ? String(error.message) : outcomeText(error);
  } catch {
    // a revoked Proxy (instanceof throws) or a `message` getter that throws: the notes still reach the model
    message = outcomeText(error);
  }
  return new Error(withNotes(message, notes), { cause: error });
}

/**
 * `obj` with `props` in place of its own: a plain object is copied with them; any other object (a class
 * instance) is not copied but wrapped in a Proxy that answers `props` and otherwise reads and writes the
 * original, its methods and getters run on the original (so its prototype, state and private fields stay
 * its own, whoever calls them).
 */
export function withOwn<T extends object>(obj: T, props: Record<string, unknown>): T {
  let proto: unknown;
  try {
    proto = Object.getPrototypeOf(obj);
  } catch {
    return obj; // a revoked Proxy: nothing can be added to it, and the SDK gets it as the tool gave it
  }
  if (proto === Object.prototype || proto === null) return { ...obj, ...props };
  return new Proxy(obj, {
    get: (target, key) => {
      if (typeof key === 'string' && Object.hasOwn(props, key)) return props[key];
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
    set: (target, key, value) => Reflect.set(target, key, value, target),
    has: (target, key) => (typeof key === 'string' && Object.hasOwn(props, key)) || Reflect.has(target, key),
  });
}

/** The text the model sees for a blocked call, as true for a host of `reach` (a stop that only blocks the call says so). */
export function denialText(d: LiveDecision, reach: HostReach = FULL_REACH): string {
  return hostMessage(d, reach) ?? '[loopwatch] This call was blocked and did not run.';
}

/**
 * Proposals by call id, for SDKs whose approval callback and tool execution are two calls: the first one to
 * see a call proposes it, the second finds the decision. Bounded by MAX_REMEMBERED_CALLS.
 */
export class ProposalMemo {
  private readonly byId = new Map<string, LiveDecision>();

  constructor(private readonly guard: AdapterGuard, private readonly session: string) {}

  /** The call's proposal: the remembered one, or a new one (remembered when the call has an id). */
  propose(call: LiveCall): LiveDecision {
    const known = call.id === undefined ? undefined : this.byId.get(call.id);
    if (known !== undefined) return known;
    const d = this.guard.propose(this.session, call);
    if (call.id !== undefined) {
      this.byId.set(call.id, d);
      if (this.byId.size > MAX_REMEMBERED_CALLS) this.byId.delete(this.byId.keys().next().value as string);
    }
    return d;
  }

  /** Takes the remembered proposal of a call out (when its tool runs), or undefined. */
  take(id: string | undefined): LiveDecision | undefined {
    if (id === undefined) return undefined;
    const d = this.byId.get(id);
    this.byId.delete(id);
    return d;
  }
}
