/**
 * LiveGuard: the two-phase API as a host's guard runs it, for the SDK adapters, the MCP proxy and the hook
 * command: one LoopEngine for every session the host runs, answers that never throw (inside someone
 * else's agent an internal error allows the call and is reported once: fail open), and the stop state a
 * host's stop condition asks for.
 *
 * ```
 *   before the tool runs:  guard.propose(session, call)  -> allow | warn | ask | deny | stop
 *   after it ran:          guard.record(session, call)   -> allow | warn (add the message to the result)
 *   stop condition:        guard.stopped(session)        -> the stop decision, or undefined
 *   new user instructions: guard.freshStart(session)     -> a way back after a stop
 * ```
 */
import { ClosedError, ErrorCode, OptionTypeError } from '../errors.js';
import { bool, func, knownKeys } from '../options/checks.js';
import { TOP_KEYS } from '../options/resolve-options.js';
import { cutText } from '../text/shown-text.js';
import { LoopEngine } from './loop-engine.js';
import { ENGINE_KEYS, type LoopEngineOptions } from './engine-options.js';
import type { LiveCall, LiveDecision, LivePhase } from '../live/live-call.js';

/** Options of a LiveGuard: the engine's, and what happens when loopwatch itself fails. */
export interface LiveGuardOptions extends LoopEngineOptions {
  /**
   * On an internal error (or a call loopwatch cannot read), deny the call instead of allowing it.
   * @default false (fail open)
   */
  readonly failClosed?: boolean;
  /**
   * Told about the first internal error only (every later one is handled the same way, silently).
   * @default a process warning (`LoopwatchFailOpenWarning`)
   */
  readonly onInternalError?: (error: Error) => void;
}

/** LiveGuard option names beside the engine's (named in an unknown option's error, and its "did you mean"). */
export const GUARD_KEYS = ['failClosed', 'onInternalError'] as const;

/** What a closed guard says, once: it never opens again, so "until it clears" would not be true. */
export const GUARD_CLOSED_MESSAGE = 'loopwatch: this LiveGuard was closed; its calls are allowed without loop checks (make a new guard)';
/** What a guard over an engine its caller closed says, once. */
export const ENGINE_CLOSED_MESSAGE = "loopwatch: this LiveGuard's LoopEngine was closed; its calls are allowed without loop checks (make a new guard)";

/** What a guard says, once, of a call it could not read (the caller's input, not loopwatch's fault; nothing to clear). */
export const UNREADABLE_CALL_WARNING = 'loopwatch: a call that could not be read was allowed without a loop check (said once)';

function warnOnce(error: Error): void {
  const code = (error as { code?: unknown }).code;
  const text =
    code === ErrorCode.CLOSED
      ? error.message
      : code === ErrorCode.INVALID_EVENT
        ? `${UNREADABLE_CALL_WARNING}: ${error.message}`
        : `loopwatch: an internal error; calls are allowed without loop checks until it clears: ${error.message}`;
  process.emitWarning(text, 'LoopwatchFailOpenWarning');
}

/**
 * `options` read once, each own property (a getter called once), or an OptionTypeError when they cannot be
 * read (a getter or Proxy trap that throws), as the engine's own options are: never the raw error.
 */
function readOptions(options: LiveGuardOptions): LiveGuardOptions {
  try {
    return { ...options };
  } catch (e) {
    throw new OptionTypeError('options', `options could not be read: ${cutText(e instanceof Error ? String(e.message) : 'a value was thrown', 200)}`);
  }
}

/** Two-phase checks for a host's sessions, failing open. */
export class LiveGuard {
  /** The engine holding the sessions. */
  readonly engine: LoopEngine;
  private readonly failClosed: boolean;
  private readonly onInternalError: (error: Error) => void;
  private reported = false;
  private closed = false;

  /** A guard over a new engine made with `options`, or over an engine the caller made. */
  constructor(options: LiveGuardOptions | LoopEngine = {}) {
    if (options instanceof LoopEngine) {
      this.engine = options;
      this.failClosed = false;
      this.onInternalError = warnOnce;
    } else {
      const read = readOptions(options);
      // the guard's own options are checked as the engine checks its: a `failClosed: 'true'` read as false
      // would fail open in silence, an `onInternalError` that is no function would lose every report
      knownKeys('options', read as Record<string, unknown>, [...TOP_KEYS, ...ENGINE_KEYS, ...GUARD_KEYS]);
      const { failClosed, onInternalError, ...engineOptions } = read;
      this.failClosed = failClosed === undefined ? false : bool('options.failClosed', failClosed);
      this.onInternalError = onInternalError === undefined ? warnOnce : func<(error: Error) => void>('options.onInternalError', onInternalError);
      this.engine = new LoopEngine(engineOptions);
    }
  }

  /** Before the call runs: may it? Never throws. */
  propose(session: string, call: LiveCall): LiveDecision {
    return this.guarded(session, 'propose', call, () => this.engine.propose(session, call));
  }

  /** After the call ran, with its `result` or `error`: anything to add to its result? Never throws. */
  record(session: string, call: LiveCall): LiveDecision {
    return this.guarded(session, 'record', call, () => this.engine.record(session, call));
  }

  /** After an `ask` a human declined: the call did not run, and counts as blocked. Never throws. */
  decline(session: string, call: LiveCall): void {
    try {
      this.engine.decline(session, call);
    } catch (err) {
      this.report(err);
    }
  }

  /**
   * The decision that stopped the session's run, if one did (LoopEngine.stopped: kept in the session's
   * snapshot, so also after `guard.engine.restore`, and by the engine when it evicts the session). Never throws.
   */
  stopped(session: string): LiveDecision | undefined {
    try {
      return this.engine.stopped(session);
    } catch (err) {
      this.report(err);
      return undefined;
    }
  }

  /**
   * Gives a session a fresh start (LoopDetector.freshStart): its stop decision is forgotten, and so are
   * the calls it blocked; the next run of a call of before is judged as new. Never throws.
   */
  freshStart(session: string): void {
    try {
      this.engine.freshStart(session);
    } catch (err) {
      this.report(err);
    }
  }

  /** Ends a session (its state and stop decision are forgotten). */
  end(session: string): void {
    try {
      this.engine.end(session);
    } catch (err) {
      this.report(err);
    }
  }

  /**
   * Frees every session. A guard used afterwards still never throws: its calls are allowed (denied with
   * `failClosed`) and a ClosedError ({@link GUARD_CLOSED_MESSAGE}) is reported once, as an internal error is.
   */
  close(): void {
    this.closed = true;
    this.engine.close();
  }

  private guarded(session: string, phase: LivePhase, call: LiveCall, run: () => LiveDecision): LiveDecision {
    try {
      return run();
    } catch (err) {
      this.report(err);
      const id = typeof call === 'object' && call !== null && typeof call.id === 'string' ? call.id : undefined;
      const closed = this.failClosed && phase === 'propose';
      return Object.freeze({
        session: String(session),
        phase,
        ...(id === undefined ? {} : { id }),
        action: closed ? 'deny' : 'allow',
        ...(closed ? { message: '[loopwatch] The loop check failed, and loopwatch is set to fail closed: this call was not run.' } : {}),
        verdict: null,
        ...(closed ? {} : { failedOpen: true }),
      } as LiveDecision);
    }
  }

  private report(err: unknown): void {
    if (this.reported) return;
    this.reported = true;
    // the engine's own ClosedError names the engine, which a guard's user may never have seen, and not what the guard does
    const error = err instanceof ClosedError ? new ClosedError(this.closed ? GUARD_CLOSED_MESSAGE : ENGINE_CLOSED_MESSAGE) : err instanceof Error ? err : new Error(String(err));
    try {
      this.onInternalError(error);
    } catch {
      // a reporter that throws must not break the host either
    }
  }
}
