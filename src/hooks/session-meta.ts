/**
 * What a session's state file tells people (`loopwatch hook status`) beside the detector's snapshot: how
 * many calls the hooks decided, by action, and the last decisions with why (redacted, cut). Kept in the
 * state file as a small JSON object and bounded: at most {@link RECENT_DECISIONS} notes, runs of `allow`
 * folded into one note with a count, texts cut.
 */
import { SnapshotError } from '../errors.js';
import type { LiveAction, LiveDecision } from '../live/live-call.js';
import { redactSecrets } from '../text/redact.js';
import type { HookCall } from './hook-agent.js';
import { cutText } from '../text/shown-text.js';
import { type SaidNote, isSaidNote } from './said-once.js';

/** Decisions kept per session (the latest). */
export const RECENT_DECISIONS = 12;
/** Characters of a decision's reason kept. */
export const MAX_WHY = 400;
/** Characters of a tool name kept. */
const MAX_TOOL = 120;
const ACTIONS: readonly LiveAction[] = ['allow', 'warn', 'ask', 'deny', 'stop'];

/** One decision (or a run of `allow`s) as status shows it. */
export interface DecisionNote {
  /** When it was decided (milliseconds since the epoch; the last of a run). */
  readonly time: number;
  /** Before the call ran, or after. */
  readonly phase: 'propose' | 'record';
  /** The call's tool (of the last of a run). */
  readonly tool: string;
  /** What the agent was told. */
  readonly action: LiveAction;
  /** How many decisions in a row this note stands for (runs of `allow`). */
  readonly count: number;
  /** Why (the message to the model, redacted and cut); absent for `allow`. */
  readonly why?: string;
  /** The kind of loop behind it (the verdict's kind), when there was one. */
  readonly kind?: string;
}

/** A session's notes. Plain data. */
export interface SessionMeta {
  /** When this state began (its first call, or its restart), milliseconds since the epoch. */
  readonly started: number;
  /** Calls decided before they ran. */
  readonly proposals: number;
  /** Outcomes recorded after calls ran. */
  readonly records: number;
  /** Decisions by action, before and after calls. */
  readonly actions: Readonly<Record<LiveAction, number>>;
  /** The latest decisions, oldest first. */
  readonly recent: readonly DecisionNote[];
  /** What the hook last said about a loop (said-once.ts); absent before its first warning, and after a fresh start. */
  readonly said?: SaidNote;
}

/** The notes of a session that starts at `now`. */
export function emptyMeta(now: number): SessionMeta {
  return { started: now, proposals: 0, records: 0, actions: { allow: 0, warn: 0, ask: 0, deny: 0, stop: 0 }, recent: [] };
}

/** `text` on one line, redacted, cut to `max` characters (capped before any pattern reads it). */
function cut(text: string, max: number): string {
  const shown = redactSecrets(cutText(text, 16 * 1024).replace(/\s+/g, ' ').trim());
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
}

/** `meta` after `decision` on `call` at `now`. */
export function withDecision(meta: SessionMeta, call: HookCall, decision: LiveDecision, now: number): SessionMeta {
  const phase = decision.phase;
  const tool = cut(call.call.tool, MAX_TOOL);
  const recent = [...meta.recent];
  const last = recent.at(-1);
  if (decision.action === 'allow' && last?.action === 'allow') recent[recent.length - 1] = { ...last, time: now, phase, tool, count: last.count + 1 };
  else {
    const why = decision.message === undefined || decision.message === '' ? {} : { why: cut(decision.message, MAX_WHY) };
    const kind = decision.verdict === null ? {} : { kind: decision.verdict.kind };
    recent.push({ time: now, phase, tool, action: decision.action, count: 1, ...why, ...kind });
  }
  return {
    started: meta.started,
    proposals: meta.proposals + (phase === 'propose' ? 1 : 0),
    records: meta.records + (phase === 'record' ? 1 : 0),
    actions: { ...meta.actions, [decision.action]: meta.actions[decision.action] + 1 },
    recent: recent.slice(-RECENT_DECISIONS),
    ...(meta.said === undefined ? {} : { said: meta.said }),
  };
}

/** `meta` with `said` as what the hook last said (none: forgotten, as after a fresh start). */
export function withSaid(meta: SessionMeta, said: SaidNote | undefined): SessionMeta {
  if (said === meta.said) return meta;
  const { said: _old, ...rest } = meta;
  return said === undefined ? rest : { ...rest, said };
}

/** The notes as bytes (UTF-8 JSON). */
export function encodeMeta(meta: SessionMeta): Buffer {
  return Buffer.from(JSON.stringify(meta), 'utf8');
}

const count = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const text = (v: unknown, max: number): boolean => v === undefined || (typeof v === 'string' && v.length <= max);

function isNote(n: unknown): n is DecisionNote {
  if (typeof n !== 'object' || n === null) return false;
  const o = n as Record<string, unknown>;
  return count(o.time) && (o.phase === 'propose' || o.phase === 'record') && typeof o.tool === 'string' && text(o.tool, MAX_TOOL) && ACTIONS.includes(o.action as LiveAction) && count(o.count) && text(o.why, MAX_WHY) && text(o.kind, 100);
}

/** The notes in `bytes`. Throws SnapshotError when they are not notes this module wrote. */
export function decodeMeta(bytes: Uint8Array): SessionMeta {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new SnapshotError('the state file\'s notes are not JSON');
  }
  const actions = (typeof o === 'object' && o !== null ? o.actions : null) as Record<string, unknown> | null;
  const ok =
    typeof o === 'object' && o !== null && count(o.started) && count(o.proposals) && count(o.records) && typeof actions === 'object' && actions !== null && ACTIONS.every((a) => count(actions[a])) && Array.isArray(o.recent) && o.recent.length <= RECENT_DECISIONS && o.recent.every(isNote) && (o.said === undefined || isSaidNote(o.said));
  if (!ok) throw new SnapshotError('the state file\'s notes are not loopwatch\'s');
  return { started: o.started as number, proposals: o.proposals as number, records: o.records as number, actions: actions as unknown as Record<LiveAction, number>, recent: o.recent as DecisionNote[], ...(o.said === undefined ? {} : { said: o.said as SaidNote }) };
}
