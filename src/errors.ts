/**
 * Every error loopwatch throws, each with a stable `code` callers can switch on.
 *
 * Option errors are `TypeError`s (wrong type, unknown name) and `RangeError`s (right type, value out of
 * range), so generic handlers still work; they carry the option's dotted path in `option`.
 * A brand symbol makes {@link isLoopwatchError} work across worker threads and duplicate installs.
 */

import type { LiveDecision } from './types.js';

const BRAND = Symbol.for('loopwatch.error');

/** Stable error codes. */
export const ErrorCode = {
  OPTION_TYPE: 'ERR_LOOPWATCH_OPTION_TYPE',
  OPTION_RANGE: 'ERR_LOOPWATCH_OPTION_RANGE',
  UNKNOWN_OPTION: 'ERR_LOOPWATCH_UNKNOWN_OPTION',
  INVALID_EVENT: 'ERR_LOOPWATCH_INVALID_EVENT',
  DETECTOR: 'ERR_LOOPWATCH_DETECTOR',
  WASM_TRAP: 'ERR_LOOPWATCH_WASM_TRAP',
  DISPOSED: 'ERR_LOOPWATCH_DISPOSED',
  SNAPSHOT: 'ERR_LOOPWATCH_SNAPSHOT',
  CLOSED: 'ERR_LOOPWATCH_CLOSED',
  SESSION_LOST: 'ERR_LOOPWATCH_SESSION_LOST',
  LOOP_STOPPED: 'ERR_LOOPWATCH_LOOP_STOPPED',
  CALL_DENIED: 'ERR_LOOPWATCH_CALL_DENIED',
  CAPACITY: 'ERR_LOOPWATCH_CAPACITY',
  SESSION_STOPPED: 'ERR_LOOPWATCH_SESSION_STOPPED',
  ANSWER_TOO_LARGE: 'ERR_LOOPWATCH_ANSWER_TOO_LARGE',
  DUPLICATE_CALL: 'ERR_LOOPWATCH_DUPLICATE_CALL',
  ANSWER_TIMEOUT: 'ERR_LOOPWATCH_ANSWER_TIMEOUT',
  NO_STREAM: 'ERR_LOOPWATCH_NO_STREAM',
  NATS_UNREACHABLE: 'ERR_LOOPWATCH_NATS_UNREACHABLE',
  STORE_FULL: 'ERR_LOOPWATCH_STORE_FULL',
  MISSING_PEER: 'ERR_LOOPWATCH_MISSING_PEER',
  CHECKS_ONLY: 'ERR_LOOPWATCH_CHECKS_ONLY',

  NOT_PRIVATE: 'ERR_LOOPWATCH_NOT_PRIVATE',
} as const;

/** One of {@link ErrorCode}'s values. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Whether `e` is any loopwatch error (of this or another copy of the package). */
export function isLoopwatchError(e: unknown): e is { code: ErrorCodeValue; message: string } {
  return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[BRAND] === true;
}

function brand(e: object): void {
  Object.defineProperty(e, BRAND, { value: true });
}

/** An option has the wrong type, or its name is not known. */
export class OptionTypeError extends TypeError {
  /** `ERR_LOOPWATCH_OPTION_TYPE` or `ERR_LOOPWATCH_UNKNOWN_OPTION`. */
  readonly code: ErrorCodeValue;
  /** Dotted path of the option, e.g. `detectors.cycle.maxPeriod`. */
  readonly option: string;

  constructor(option: string, message: string, code: ErrorCodeValue = ErrorCode.OPTION_TYPE) {
    super(message);
    this.name = 'OptionTypeError';
    this.code = code;
    this.option = option;
    brand(this);
  }
}

/** An option has the right type but a value outside what it allows. */
export class OptionRangeError extends RangeError {
  /** `ERR_LOOPWATCH_OPTION_RANGE`. */
  readonly code: ErrorCodeValue = ErrorCode.OPTION_RANGE;
  /** Dotted path of the option. */
  readonly option: string;

  constructor(option: string, message: string) {
    super(message);
    this.name = 'OptionRangeError';
    this.option = option;
    brand(this);
  }
}

/** An event passed to `check()` is not a tool call loopwatch can read; nothing was recorded. */
export class InvalidEventError extends TypeError {
  /** `ERR_LOOPWATCH_INVALID_EVENT`. */
  readonly code: ErrorCodeValue = ErrorCode.INVALID_EVENT;
  /** Which field is wrong. */
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.name = 'InvalidEventError';
    this.field = field;
    brand(this);
  }
}

/** A custom detector broke its contract (threw, or returned a malformed signal). The call was recorded. */
export class DetectorError extends Error {
  /** `ERR_LOOPWATCH_DETECTOR`. */
  readonly code: ErrorCodeValue = ErrorCode.DETECTOR;
  /** Name of the detector. */
  readonly detector: string;

  constructor(detector: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DetectorError';
    this.detector = detector;
    brand(this);
  }
}

/**
 * The WebAssembly module trapped on a call. Only that call failed: the module was rebuilt over the same
 * memory, other sessions carry on, and this session is quarantined (every call fails with this error)
 * until `reset()`.
 */
export class WasmTrapError extends Error {
  /** `ERR_LOOPWATCH_WASM_TRAP`. */
  readonly code: ErrorCodeValue = ErrorCode.WASM_TRAP;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WasmTrapError';
    brand(this);
  }
}

/** A detector was used after `dispose()`. */
export class DisposedError extends Error {
  /** `ERR_LOOPWATCH_DISPOSED`. */
  readonly code: ErrorCodeValue = ErrorCode.DISPOSED;

  constructor(message: string) {
    super(message);
    this.name = 'DisposedError';
    brand(this);
  }
}

/**
 * A session snapshot could not be taken or restored: not a snapshot, another format version, corrupt or
 * truncated bytes, taken under other options, or a session whose state cannot be captured.
 */
export class SnapshotError extends Error {
  /** `ERR_LOOPWATCH_SNAPSHOT`. */
  readonly code: ErrorCodeValue = ErrorCode.SNAPSHOT;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SnapshotError';
    brand(this);
  }
}

/** An engine or pool was used after `close()`. */
export class ClosedError extends Error {
  /** `ERR_LOOPWATCH_CLOSED`. */
  readonly code: ErrorCodeValue = ErrorCode.CLOSED;

  constructor(message: string) {
    super(message);
    this.name = 'ClosedError';
    brand(this);
  }
}

/**
 * A session's state was lost (its worker died) and could not be brought back exactly: the call in its
 * place was not checked. `restoredFrom` is the number of calls the session was restored to (from its last
 * snapshot), or null when it had none and starts again empty.
 */
export class SessionLostError extends Error {
  /** `ERR_LOOPWATCH_SESSION_LOST`. */
  readonly code: ErrorCodeValue = ErrorCode.SESSION_LOST;
  /** The session. */
  readonly sessionId: string;
  /** Calls of the restored state, or null when the session restarts empty. */
  readonly restoredFrom: number | null;

  constructor(sessionId: string, restoredFrom: number | null, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SessionLostError';
    this.sessionId = sessionId;
    this.restoredFrom = restoredFrom;
    brand(this);
  }
}

/**
 * A call published to the NATS service was dropped by the stream as a repeat: a message with the same
 * `Nats-Msg-Id` (its session, its caller and its call id) was stored within the stream's duplicate window,
 * so this one is not stored and gets no answer of its own. Give each call of a session its own id (a call
 * whose check timed out is stored, and still checked: it needs no resend).
 */
export class DuplicateCallError extends Error {
  /** `ERR_LOOPWATCH_DUPLICATE_CALL`. */
  readonly code: ErrorCodeValue = ErrorCode.DUPLICATE_CALL;
  /** The message id the stream had already stored. */
  readonly msgId: string;

  constructor(msgId: string, message: string) {
    super(message);
    this.name = 'DuplicateCallError';
    this.msgId = msgId;
    brand(this);
  }
}

/**
 * A call published to the NATS service got no answer within the caller's time (`NatsCaller.check`,
 * `propose`, `record`). Not a refusal: a message the stream stored (`seq` is its sequence) stays there and
 * is checked, in order with its session's other calls, once a worker holds its partition (a dead worker's
 * partition is taken after its lease, `--lease-ms`, runs out), so the session's state goes on from it.
 * Publishing it again with the same call ids within the stream's duplicate window is dropped as a repeat.
 */
export class AnswerTimeoutError extends Error {
  /** `ERR_LOOPWATCH_ANSWER_TIMEOUT`. */
  readonly code: ErrorCodeValue = ErrorCode.ANSWER_TIMEOUT;
  /** The session. */
  readonly sessionId: string;
  /** How long the caller waited, in ms. */
  readonly timeoutMs: number;
  /** The message's sequence in the calls stream, or undefined when the stream had not yet stored it. */
  readonly seq: number | undefined;

  constructor(sessionId: string, timeoutMs: number, seq: number | undefined, message: string) {
    super(message);
    this.name = 'AnswerTimeoutError';
    this.sessionId = sessionId;
    this.timeoutMs = timeoutMs;
    this.seq = seq;
    brand(this);
  }
}

/**
 * A call published to the NATS service found no stream to store it: the server runs without JetStream, or
 * no `loopwatch serve --nats` worker has yet made loopwatch's streams on it (the first worker's start
 * does). Nothing was stored. The NATS client's own error is the `cause`.
 */
export class NoStreamError extends Error {
  /** `ERR_LOOPWATCH_NO_STREAM`. */
  readonly code: ErrorCodeValue = ErrorCode.NO_STREAM;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NoStreamError';
    brand(this);
  }
}

/**
 * No NATS server could be reached (`NatsCaller.connect`, `loopwatch serve --nats`) within the wait: the
 * setup may be right, the server is not there (yet). The message names the servers (credentials redacted)
 * and what went wrong; retry later, or check the address. Credentials refused, a bad file or TLS fail with
 * their own errors, at once.
 */
export class NatsUnreachableError extends Error {
  /** `ERR_LOOPWATCH_NATS_UNREACHABLE`. */
  readonly code: ErrorCodeValue = ErrorCode.NATS_UNREACHABLE;

  constructor(message: string) {
    super(message);
    this.name = 'NatsUnreachableError';
    brand(this);
  }
}

/**
 * A call published to the NATS service was refused by its calls stream, which is full: it holds its
 * `--stream-max-bytes` of calls not yet checked (a worker drops the calls it has checked). Nothing was
 * stored, so the call gets no answer: send it again later, once the workers have caught up. The NATS
 * client's own error is the `cause`.
 */
export class StoreFullError extends Error {
  /** `ERR_LOOPWATCH_STORE_FULL`. */
  readonly code: ErrorCodeValue = ErrorCode.STORE_FULL;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreFullError';
    brand(this);
  }
}

/**
 * A run was stopped because it kept looping after its calls were blocked (a `stop` decision). Thrown by
 * the SDK adapters where an SDK stops a run by an exception, so the caller can tell why it stopped.
 */
export class LoopStoppedError extends Error {
  /** `ERR_LOOPWATCH_LOOP_STOPPED`. */
  readonly code: ErrorCodeValue = ErrorCode.LOOP_STOPPED;
  /** The decision that stopped the run: its session, verdict and message. */
  readonly decision: LiveDecision;

  constructor(decision: LiveDecision) {
    super(decision.message ?? `loopwatch: session "${decision.session}" was stopped for looping`);
    this.name = 'LoopStoppedError';
    this.decision = decision;
    brand(this);
  }
}

/**
 * A tool call was denied before it ran (a `deny` decision): thrown from a wrapped tool by the SDK adapters
 * whose SDK shows a tool's error to the model, so the model reads `message` in place of a result.
 */
export class CallDeniedError extends Error {
  /** `ERR_LOOPWATCH_CALL_DENIED`. */
  readonly code: ErrorCodeValue = ErrorCode.CALL_DENIED;
  /** The decision that denied the call: its session, verdict and message. */
  readonly decision: LiveDecision;

  constructor(decision: LiveDecision) {
    super(decision.message ?? '[loopwatch] This call was blocked and did not run.');
    this.name = 'CallDeniedError';
    this.decision = decision;
    brand(this);
  }
}

/**
 * The thread's WebAssembly memory (4 GiB at most, shared by every session of the thread) has no room for
 * what a call needed: a new session, or a record larger than what is left. That call failed and was not
 * recorded; other sessions are unharmed. An engine evicts its least recently used session to make room
 * before it fails a call with this error.
 */
export class CapacityError extends Error {
  /** `ERR_LOOPWATCH_CAPACITY`. */
  readonly code: ErrorCodeValue = ErrorCode.CAPACITY;

  constructor(message: string) {
    super(message);
    this.name = 'CapacityError';
    brand(this);
  }
}

/**
 * A session that checks only after the fact (`checksOnly`: LoopDetector's SessionMode, LoopEngine's and
 * LoopPool's option) was asked to check a call before it runs or to say what became of one (propose,
 * record, decline, didNotRun): it leaves out the facts those need. Make the session without `checksOnly`.
 */
export class ChecksOnlyError extends Error {
  /** `ERR_LOOPWATCH_CHECKS_ONLY`. */
  readonly code: ErrorCodeValue = ErrorCode.CHECKS_ONLY;

  constructor(message: string) {
    super(message);
    this.name = 'ChecksOnlyError';
    brand(this);
  }
}

/**
 * A new run was started on a session loopwatch had already stopped (an agent or tool set reused with the
 * same session after a stop): the SDK adapters fail loudly instead of letting the new run do nothing. Name
 * a session per run, or `guard.end(session)` to start the session over.
 */
export class SessionStoppedError extends Error {
  /** `ERR_LOOPWATCH_SESSION_STOPPED`. */
  readonly code: ErrorCodeValue = ErrorCode.SESSION_STOPPED;
  /** The decision that stopped the session's earlier run. */
  readonly decision: LiveDecision;

  constructor(decision: LiveDecision) {
    super(`loopwatch stopped session "${decision.session}" in an earlier run, and a new run was started on it: name a session per run, or call guard.end("${decision.session}") to start it over`);
    this.name = 'SessionStoppedError';
    this.decision = decision;
    brand(this);
  }
}

/**
 * A part of loopwatch that needs a package it does not install with itself (an optional peer dependency:
 * the NATS client for the NATS service, prom-client for Prometheus metrics, @opentelemetry/api for an
 * engine's OpenTelemetry metrics) was used where that package cannot be found. The message names the
 * packages and the command that installs them.
 */
export class MissingPeerError extends Error {
  /** `ERR_LOOPWATCH_MISSING_PEER`. */
  readonly code: ErrorCodeValue = ErrorCode.MISSING_PEER;
  /** What needed them, e.g. `the NATS service`. */
  readonly feature: string;
  /** Every package the feature needs, as `npm install` takes them. */
  readonly packages: readonly string[];

  constructor(feature: string, packages: readonly string[], cause: unknown) {
    const many = packages.length > 1;
    super(`loopwatch: ${feature} needs ${packages.join(', ')}, ${many ? 'optional peer dependencies' : 'an optional peer dependency'} of loopwatch that npm does not install with it (${firstLine(cause)}); install ${many ? 'them' : 'it'} where loopwatch is installed: npm install ${packages.join(' ')} (with -g beside a global loopwatch)`, { cause });
    this.name = 'MissingPeerError';
    this.feature = feature;
    this.packages = Object.freeze([...packages]);
    brand(this);
  }
}

/** The first line of an error's message, 200 characters at most. */
function firstLine(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.split('\n', 1)[0]!.slice(0, 200);
}

/**
 * A file or folder loopwatch would read code or state from is not private to the user: owned by another
 * user, writable by others than its owner, a symbolic link where a file was expected, or not a regular
 * file. It was not used (the hooks allow the call, or start the session again, and say why).
 */
export class NotPrivateError extends Error {
  /** `ERR_LOOPWATCH_NOT_PRIVATE`. */
  readonly code: ErrorCodeValue = ErrorCode.NOT_PRIVATE;
  /** The file or folder. */
  readonly path: string;
  /** Why it is not private (`it is owned by uid 1001, not by this user (uid 1000)`). */
  readonly reason: string;

  constructor(path: string, reason: string) {
    super(`${path}: ${reason}`);
    this.name = 'NotPrivateError';
    this.path = path;
    this.reason = reason;
    brand(this);
  }
}
