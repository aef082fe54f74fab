/**
 * From a caller's event to what the detectors read: validation, argument parsing, per-tool
 * normalisation, the call's canonical signature and the outcome keys, written into the session's call
 * history. Nothing is recorded when the event is invalid.
 *
 * Outcome keys of a call (low 32 bits of 64-bit fingerprints):
 * - `outcome`: the result's canonical fingerprint, else the error text's;
 * - `masked`: for a failure, its error class (the error text masked, with the tests it names as failed: test-place.ts);
 *   otherwise the masked result text;
 * - `error`: the exact error text's;
 * - flags: KNOWN, ERROR, INFRA (rate limit, 5xx, timeout, reset), EMPTY (blank or null result),
 *   NOTHING (a result saying nothing was found), BRIEF (a text result under 64 bytes: an acknowledgement).
 */
import { type CanonicalWalkOptions, encodeUtf8, hashString, hashValue, utf8Scratch } from '../fingerprint/canonical-hash.js';
import { Tag, combine2, word } from '../fingerprint/combine.js';
import { parseArgs, signatureFrom } from '../fingerprint/signature.js';
import { u64 } from '../fingerprint/u64.js';
import { xxh64 } from '../fingerprint/xxh64.js';
import type { CallLog } from '../state/call-log.js';
import { LoggedCall } from './observed-call.js';
import { InvalidEventError } from '../errors.js';
import { describe } from '../options/checks.js';
import type { ResolvedOptions, ToolRule } from '../options/options.js';
import { BRIEF_BYTES, CallHistory, OutcomeFlag } from '../state/call-history.js';
import { isInfraFailure } from '../text/infra-failure.js';
import { maskBytes } from '../text/mask-volatile.js';
import { errorText, resultText } from '../text/outcome-text.js';
import { bytesSayNothingFound, valueSaysNothingFound } from '../text/nothing-found.js';
import { shellNoiseEnd } from '../text/shell-noise.js';
import { testPlace } from '../text/test-place.js';
import { capText } from '../text/text-limit.js';
import type { ToolEvent } from '../types.js';

export { errorText, resultText } from '../text/outcome-text.js';


/** What a thrown value says, without trusting it (its message may be a getter that throws too). */
function thrownText(err: unknown): string {
  try {
    return err instanceof Error ? String(err.message) : String(err);
  } catch {
    return 'a value that cannot be shown';
  }
}

/** The InvalidEventError for a field whose value threw as it was read (a getter, a Proxy trap, a toString). */
export function unreadable(field: string, err: unknown): InvalidEventError {
  return new InvalidEventError(field, `event.${field} could not be read (${thrownText(err)}); nothing was recorded`);
}

function notString(f: string, v: unknown): never {
  throw new InvalidEventError(f, `event.${f} must be a string when given, received ${describe(v)}`);
}

function notFinite(f: string, v: unknown): never {
  throw new InvalidEventError(f, `event.${f} must be a finite number when given, received ${describe(v)}`);
}

/**
 * Checks that `event` is a tool call loopwatch can read and returns it as a fixed-shape copy (each field read
 * once: some objects, such as those made by spreading another, make every missing-property read slow), its
 * `text` cut to `TEXT_LIMIT` characters; throws {@link InvalidEventError} otherwise, also when reading a
 * field throws (a getter, a Proxy trap) or the error's text cannot be read (see errorText). Args and results
 * need no more than this: whatever they hold is fingerprinted (parts that throw as one "unsupported" marker,
 * see canonical-hash.ts).
 */
export function validateEvent(event: unknown): ToolEvent {
  let field = 'event';
  let e: Record<string, unknown>;
  let tool: unknown, args: unknown, result: unknown, error: unknown, text: unknown, description: unknown, step: unknown, round: unknown;
  try {
    if (typeof event !== 'object' || event === null || Array.isArray(event)) {
      throw new InvalidEventError('event', `event must be an object with a "tool" name, received ${describe(event)}`);
    }
    e = event as Record<string, unknown>;
    field = 'tool';
    tool = e.tool;
    field = 'text';
    text = e.text;
    field = 'description';
    description = e.description;
    field = 'step';
    step = e.step;
    field = 'round';
    round = e.round;
    field = 'args';
    args = e.args;
    field = 'result';
    result = e.result;
    field = 'error';
    error = e.error;
  } catch (err) {
    throw err instanceof InvalidEventError ? err : unreadable(field, err);
  }
  if (typeof tool !== 'string' || tool.length === 0) {
    throw new InvalidEventError('tool', `event.tool must be a non-empty string, received ${describe(tool)}`);
  }
  if (text !== undefined && typeof text !== 'string') notString('text', text);
  if (description !== undefined && typeof description !== 'string') notString('description', description);
  if (step !== undefined && !(typeof step === 'number' && Number.isFinite(step))) notFinite('step', step);
  if (round !== undefined && !(typeof round === 'number' && Number.isFinite(round))) notFinite('round', round);
  if (error !== undefined && typeof error !== 'string') {
    let text: string | undefined;
    try {
      text = errorText(error);
    } catch (err) {
      throw unreadable('error', err);
    }
    // an object's text read once, for every part after (the text, or `true` for none: as a pool sends an
    // error to its workers, portable-values.ts): a hostile error object was walked again by each of them
    if (typeof error === 'object' && error !== null && text !== undefined) error = text === '' ? true : text;
  }
  return {
    tool,
    args,
    result,
    error,
    text: text === undefined ? undefined : capText(text as string),
    description: description as string | undefined,
    step: step as number | undefined,
    round: round as number | undefined,
  };
}

/** Whether UTF-8 text `bytes[0, n)` is under BRIEF_BYTES once leading and trailing ASCII white space is trimmed. */
function isBrief(bytes: Uint8Array, n: number): boolean {
  let s = 0;
  let e = n;
  while (s < e && isSpaceByte(bytes[s] as number)) s++;
  while (e > s && isSpaceByte(bytes[e - 1] as number)) e--;
  return e - s < BRIEF_BYTES;
}

function isSpaceByte(b: number): boolean {
  return b === 0x20 || (b >= 0x09 && b <= 0x0d);
}

/**
 * Whether UTF-8 text `bytes[0, n)` is blank, or blank once the lines a shell's startup prints ahead of it
 * are set aside (src/text/shell-noise.ts: a probe that printed nothing after ssh-add's "Identity added: ..."
 * printed nothing).
 */
function isBlank(bytes: Uint8Array, n: number): boolean {
  if (blankFrom(bytes, 0, n)) return true;
  const skip = shellNoiseEnd(bytes, n);
  return skip > 0 && blankFrom(bytes, skip, n);
}

function blankFrom(bytes: Uint8Array, from: number, n: number): boolean {
  for (let i = from; i < n; i++) {
    const b = bytes[i] as number;
    if (!(b === 0x20 || (b >= 0x09 && b <= 0x0d))) return false;
  }
  return true;
}

/** Normalises events of one session and writes them into its call history. */
export class EventObserver {
  private readonly walks = new Map<string, CanonicalWalkOptions>();
  private readonly maskResults: boolean;

  constructor(
    private readonly o: ResolvedOptions,
    private readonly history: CallHistory,
    private readonly log: CallLog,
  ) {
    this.maskResults = o.detectors.resultRepeat?.masked === true;
  }

  /** The per-tool rule, if any. */
  rule(tool: string): ToolRule | undefined {
    return this.o.tools.get(tool);
  }

  /** The canonical walk for a tool's args: its ignored fields and the depth cap. */
  walkFor(tool: string): CanonicalWalkOptions {
    let w = this.walks.get(tool);
    if (w === undefined) {
      const fields = [...this.o.ignoreFields, ...(this.o.tools.get(tool)?.ignoreFields ?? [])];
      w = { ignoreKeys: fields.length === 0 ? null : new Set(fields), maxDepth: this.o.maxDepth };
      if (this.walks.size < 10_000) this.walks.set(tool, w);
    }
    return w;
  }

  /**
   * Records a validated, non-exempt event as the next call (history and log) and returns what detectors
   * see. What can throw (the tool's identity, the error's text) is read before anything is recorded, and
   * thrown as an InvalidEventError naming the field. `proposed`: a call checked before it runs (no outcome;
   * left out of progress).
   */
  observe(e: ToolEvent, proposed = false): LoggedCall {
    const h = this.history;
    const tool = e.tool;
    const rule = this.rule(tool);
    let args: unknown;
    let err: string | undefined;
    try {
      args = parseArgs(e.args);
      if (rule?.identity !== undefined) args = rule.identity(args, tool);
    } catch (x) {
      throw unreadable('args', x);
    }
    try {
      err = errorText(e.error);
    } catch (x) {
      throw unreadable('error', x);
    }
    const index = h.advance();
    const s = h.slot(index);

    const toolL = hashString(tool);
    const toolH = u64.hi;
    h.tool[s] = toolL;
    const sigL = signatureFrom(toolH, toolL, args, this.walkFor(tool));
    const sigH = u64.hi;
    h.sig[s] = sigL;

    let flags = proposed ? OutcomeFlag.PROPOSED : 0;
    let outH = 0;
    let outL = 0;
    if (e.result !== undefined) {
      flags |= OutcomeFlag.KNOWN;
      let rl: number;
      if (typeof e.result === 'string') {
        const n = encodeUtf8(e.result);
        const bytes = utf8Scratch();
        rl = xxh64(bytes, 0, n, 0, Tag.STRING);
        if (isBlank(bytes, n)) flags |= OutcomeFlag.EMPTY;
        else if (bytesSayNothingFound(bytes, n)) flags |= OutcomeFlag.NOTHING;
        if (isBrief(bytes, n)) flags |= OutcomeFlag.BRIEF;
      } else {
        rl = hashValue(e.result);
        if (e.result === null) flags |= OutcomeFlag.EMPTY;
        else if (valueSaysNothingFound(e.result)) flags |= OutcomeFlag.NOTHING;
      }
      outL = word(Tag.RESULT, u64.hi, rl);
      outH = u64.hi;
      if (this.maskResults) {
        const n = encodeUtf8(resultText(e.result));
        const m = maskBytes(utf8Scratch(), n);
        h.masked[s] = xxh64(m, 0, m.length, 0, Tag.MASKED_RESULT);
      }
    }
    let infra = false;
    if (err !== undefined) {
      flags |= OutcomeFlag.KNOWN | OutcomeFlag.ERROR;
      infra = isInfraFailure(err);
      if (infra) flags |= OutcomeFlag.INFRA;
      const n = encodeUtf8(err);
      const bytes = utf8Scratch();
      const el = xxh64(bytes, 0, n, 0, Tag.ERROR);
      const eh = u64.hi;
      h.error[s] = el;
      if (e.result === undefined) {
        outL = el;
        outH = eh;
      }
      // a failure naming the tests that failed is of their place too (test-place.ts): other tests failing alike are another class
      const pl = testPlace(bytes, n);
      const ph = u64.hi;
      if (pl !== 0 || ph !== 0) flags |= OutcomeFlag.TESTS;
      const m = maskBytes(bytes, n);
      h.masked[s] = pl === 0 && ph === 0 ? xxh64(m, 0, m.length, 0, Tag.ERROR_CLASS) : xxh64(m, 0, m.length, ph, pl);
    }
    h.outcome[s] = outL;
    h.flags[s] = flags;

    let stateKey = 0;
    if ((flags & OutcomeFlag.KNOWN) !== 0 && !infra) {
      let ah = sigH;
      let al = sigL;
      if (e.description !== undefined) {
        al = hashString(e.description);
        ah = u64.hi;
      }
      stateKey = combine2(Tag.STATE, ah, al, outH, outL) || 1;
    }

    this.log.push(tool, args, true, e.description, sigH, sigL, e.step, e.round);
    return new LoggedCall(this.log, index, e, err !== undefined, infra, err, stateKey);
  }
}
