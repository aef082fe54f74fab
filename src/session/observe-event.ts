/**
 * From a caller's event to what the detectors read: validation, argument parsing, per-tool
 * normalisation, the call's canonical signature and the outcome fingerprints, written into the session's
 * call history. Nothing is recorded when the event is invalid.
 */
import { type CanonicalWalkOptions, hashString, hashValue } from '../fingerprint/canonical-hash.js';
import { Tag, word } from '../fingerprint/combine.js';
import { parseArgs, signatureFrom } from '../fingerprint/signature.js';
import { toHex, u64 } from '../fingerprint/u64.js';
import type { ObservedCall } from '../detectors/detector.js';
import { InvalidEventError } from '../errors.js';
import { describe } from '../options/checks.js';
import type { ResolvedOptions, ToolRule } from '../options/options.js';
import { CallHistory, OutcomeFlag } from '../state/call-history.js';
import { isInfraFailure } from '../text/infra-failure.js';
import { maskVolatile } from '../text/mask-volatile.js';
import { saysNothingFound } from '../text/nothing-found.js';
import type { ToolEvent } from '../types.js';

/** Checks that `event` is a tool call loopwatch can read; throws {@link InvalidEventError} otherwise. */
export function validateEvent(event: unknown): ToolEvent {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    throw new InvalidEventError('event', `event must be an object with a "tool" name, received ${describe(event)}`);
  }
  const e = event as Record<string, unknown>;
  if (typeof e.tool !== 'string' || e.tool.length === 0) {
    throw new InvalidEventError('tool', `event.tool must be a non-empty string, received ${describe(e.tool)}`);
  }
  for (const f of ['text', 'description'] as const) {
    if (e[f] !== undefined && typeof e[f] !== 'string') {
      throw new InvalidEventError(f, `event.${f} must be a string when given, received ${describe(e[f])}`);
    }
  }
  for (const f of ['step', 'round'] as const) {
    if (e[f] !== undefined && (typeof e[f] !== 'number' || !Number.isFinite(e[f]))) {
      throw new InvalidEventError(f, `event.${f} must be a finite number when given, received ${describe(e[f])}`);
    }
  }
  return e as unknown as ToolEvent;
}

/**
 * The text of an error: `undefined` when there is none (absent, null, false or an empty string);
 * `''` for `true`; the message of an Error or of an object with a `message`; otherwise its JSON.
 */
export function errorText(error: unknown): string | undefined {
  if (error === undefined || error === null || error === false || error === '') return undefined;
  if (error === true) return '';
  if (typeof error === 'string') return error;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') return (error as { message: string }).message;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

function isEmptyResult(result: unknown): boolean {
  return result === null || (typeof result === 'string' && result.trim().length === 0);
}

/** Normalises events of one session and writes them into its call history. */
export class EventObserver {
  private readonly walks = new Map<string, CanonicalWalkOptions>();

  constructor(
    private readonly o: ResolvedOptions,
    private readonly history: CallHistory,
  ) {}

  /** The per-tool rule, if any. */
  rule(tool: string): ToolRule | undefined {
    return this.o.tools.get(tool);
  }

  private walkFor(tool: string): CanonicalWalkOptions {
    let w = this.walks.get(tool);
    if (w === undefined) {
      const fields = [...this.o.ignoreFields, ...(this.o.tools.get(tool)?.ignoreFields ?? [])];
      w = { ignoreKeys: fields.length === 0 ? null : new Set(fields), maxDepth: this.o.maxDepth };
      if (this.walks.size < 10_000) this.walks.set(tool, w);
    }
    return w;
  }

  /** Records a validated, non-exempt event as the next call and returns what detectors see. */
  observe(e: ToolEvent): ObservedCall {
    const h = this.history;
    const tool = e.tool;
    const rule = this.rule(tool);
    let args = parseArgs(e.args);
    if (rule?.identity !== undefined) args = rule.identity(args, tool);
    const index = h.advance();
    const slot = h.slot(index);

    const toolL = hashString(tool);
    const toolH = u64.hi;
    CallHistory.put(h.tool, slot, toolH, toolL);
    const sigL = signatureFrom(toolH, toolL, args, this.walkFor(tool));
    const sigH = u64.hi;
    CallHistory.put(h.sig, slot, sigH, sigL);

    let flags = 0;
    if (e.result !== undefined) {
      flags |= OutcomeFlag.KNOWN;
      if (isEmptyResult(e.result)) flags |= OutcomeFlag.EMPTY;
      else if (saysNothingFound(e.result)) flags |= OutcomeFlag.NOTHING;
      const rl = hashValue(e.result);
      const ol = word(Tag.RESULT, u64.hi, rl);
      CallHistory.put(h.outcome, slot, u64.hi, ol);
    }
    const err = errorText(e.error);
    let infra = false;
    if (err !== undefined) {
      flags |= OutcomeFlag.KNOWN | OutcomeFlag.ERROR;
      infra = isInfraFailure(err);
      if (infra) flags |= OutcomeFlag.INFRA;
      const el = hashString(err, Tag.ERROR);
      const eh = u64.hi;
      CallHistory.put(h.error, slot, eh, el);
      if (e.result === undefined) CallHistory.put(h.outcome, slot, eh, el);
      const cl = hashString(maskVolatile(err), Tag.ERROR_CLASS);
      CallHistory.put(h.errorClass, slot, u64.hi, cl);
    }
    h.flags[slot] = flags;

    return {
      index,
      tool,
      args,
      signature: toHex(sigH, sigL),
      event: e,
      isError: err !== undefined,
      isInfraFailure: infra,
      errorText: err,
    };
  }
}
