/**
 * One hook process's work: a payload in, the agent's output out.
 *
 * ```
 * payload text -> JSON -> agent (--agent, or detected) -> codec.decode -> HookCall
 *   -> lock the session -> state file -> LoopDetector.restore -> propose | record | didNotRun (a call denied) | freshStart (a prompt)
 *   -> a verdict that would repeat what the hook last said kept quiet (said-once.ts)
 *   -> snapshot -> state file -> unlock -> codec.reply(decision, what the agent's version takes) -> stdout
 * ```
 *
 * The detection options are the command's (`--preset`, `--config`), with the agent's edit tools marked as
 * changing the workspace (a new edit after a block gives the session a fresh start) and the project's
 * allowlist (`.loopwatch.json`, project-allowlist.ts) added to `allow`.
 *
 * Inside someone else's agent loopwatch does no harm: anything that goes wrong (an unreadable payload, a
 * lock held too long, a full disk, a bug) allows the call and says so in one line on stderr, and to the person
 * in the agent's reply (`systemMessage`, once per session until a call of it is checked: unchecked-notice.ts); a state file
 * that is not the session's (corrupt, foreign, written under other options, or not the user's own hook's:
 * another owner, writable by others) is set aside and the session starts again, and a state folder of
 * another user decides nothing (state-folder.ts). With `failClosed` a call that could not be checked is denied instead (an unreadable
 * payload: exit code 2 with the reason on stderr, the block every agent understands).
 */
import { isAbsolute } from 'node:path';
import { InvalidEventError, NotPrivateError, SnapshotError, isLoopwatchError } from '../errors.js';
import { type LiveCall, type LiveDecision } from '../live/live-call.js';
import type { LoopDetectorOptions } from '../options/options.js';
import { LoopDetector } from '../session/loop-detector.js';
import { redactSecrets } from '../text/redact.js';
import { cutText, oneLine } from '../text/shown-text.js';
import { terminalSafe } from '../text/terminal-text.js';
import { agentFor, phaseOf } from './agents.js';
import { transcriptVersion, versionIn, warnsBefore } from './agent-versions.js';
import { type LoggedDecision, appendDecisionLine, decisionLine, decisionLogCap, decisionLogCapProblem, loggedDecision, loggedSpoken } from './decision-log.js';
import { type AgentName, type HookAgent, type HookCall, type ReplyContext, declinedCalls } from './hook-agent.js';
import { hookDetection } from './hook-detection.js';
import { missedRecordsFor } from './missed-records.js';
import { parsePayload, sessionOf } from './hook-payload.js';
import { withTurn } from './hook-turn.js';
import { projectAllowlist } from './project-allowlist.js';
import { SessionFile, type StoredSession } from './session-file.js';
import { type SessionMeta, emptyMeta, withDecision, withSaid } from './session-meta.js';
import { saidBy, speak } from './said-once.js';
import { prepareStateFolder } from './state-folder.js';
import { type LockOptions, acquireLock } from './state-lock.js';
import { sweepIfDue } from './state-sweep.js';
import { endSubagents, isSubagentSession } from './subagent-states.js';
import { fileFailure, isInFolder } from '../text/file-failure.js';
import { projectPreloadNotice } from './project-preload.js';
import { startEnvironmentNotice } from './start-environment-notice.js';
import { toldBefore } from './told-once.js';
import { type NoticeSession, tellUnchecked, uncheckedCleared, uncheckedReply } from './unchecked-notice.js';

/** Claude Code's event for an interrupt: an `end` of the session's subagents, not of the session (subagent-states.ts). */
const INTERRUPT = 'Interrupt';
/** Options of one hook run. */
export interface HookRunOptions {
  /** The agent that sends the payload. @default detected from the payload */
  readonly agent?: AgentName;
  /** The directory holding the sessions' state. */
  readonly stateDir: string;
  /** Deny a call that could not be checked instead of allowing it. @default false */
  readonly failClosed?: boolean;
  /** Detection options (every run of a session must use the same: the state is restarted otherwise). @default {} */
  readonly detection?: LoopDetectorOptions;
  /** How long to wait for a session's lock, and when a lock is stale. */
  readonly lock?: LockOptions;
  /** The agent's version as `hook install` found it, used when the transcript does not say (agent-versions.ts). */
  readonly agentVersion?: string;
  /** The decision log to append each decision to (decision-log.ts). @default none */
  readonly log?: string;
  /** The environment the accepted allowlists' markers are found from (accepted-allowlists.ts: XDG_STATE_HOME, HOME). @default process.env */
  readonly env?: NodeJS.ProcessEnv;
}

/** What the hook process prints and returns. */
export interface HookReply {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/** The reply that says nothing: the agent goes on as it would without loopwatch. */
export const SILENT: HookReply = Object.freeze({ stdout: '', stderr: '', exitCode: 0 });

/** Characters of a line on stderr (cut before it is redacted, never inside a secret). */
const LINE_LENGTH = 2000;

/**
 * A line for stderr: one line, capped, redacted, its control characters as escapes (it may quote the
 * agent's session id or a payload that could not be read).
 */
export function hookLine(text: string): string {
  return `loopwatch hook: ${terminalSafe(redactSecrets(oneLine(text, LINE_LENGTH)))}\n`;
}

/**
 * The reply when the call could not be checked (`why`): allowed, or denied with `failClosed` (by the
 * agent's own deny when the payload was read, else by exit code 2). An allowed call is also told to the
 * person (`systemMessage`, unchecked-notice.ts) when `tell`.
 */
export function unchecked(why: string, options: Pick<HookRunOptions, 'failClosed'>, hook: { agent: HookAgent; call: HookCall } | null, notes = '', tell = true): HookReply {
  if (options.failClosed !== true || (hook !== null && hook.call.phase !== 'propose')) {
    return { stdout: tell ? uncheckedReply(why) : '', stderr: notes + hookLine(`${why}; the call is allowed without a loop check`), exitCode: 0 };
  }
  const message = `[loopwatch] The loop check failed (${why}), and loopwatch is set to fail closed: this call was not run.`;
  if (hook === null) return { stdout: '', stderr: notes + hookLine(message), exitCode: 2 };
  const denied: LiveDecision = { session: hook.call.session, phase: 'propose', action: 'deny', message: redactSecrets(message), verdict: null };
  return { stdout: hook.agent.reply(hook.call, denied, { warnsBefore: true }), stderr: notes + hookLine(`${why}; the call is denied (--fail-closed)`), exitCode: 0 };
}

/**
 * A detector for a hook's session: the agents send an after-event for every call they ran, so a proposal
 * whose outcome never comes did not run (LoopDetector.expectEveryOutcome).
 */
export function hookDetector(detection: LoopDetectorOptions, session: string): LoopDetector {
  const d = new LoopDetector(detection, session);
  d.expectEveryOutcome();
  return d;
}

/** The session's detector and notes, restored from its file (or fresh, the file set aside, when it cannot be). */
function restore(file: SessionFile, call: HookCall, detection: LoopDetectorOptions, made: LoopDetector, notes: string[]): { detector: LoopDetector; meta: SessionMeta; restored: boolean } {
  const now = Date.now();
  const session = JSON.stringify(cutText(call.session, 80));
  let stored: StoredSession | null;
  try {
    stored = file.load();
  } catch (e) {
    if (!(e instanceof SnapshotError || e instanceof NotPrivateError)) throw e;
    file.setAside();
    const why = e instanceof NotPrivateError ? `the state file of session ${session} is not the user's own hook's (${e.message}); it was not read` : `the state of session ${session} could not be read (${e.message})`;
    notes.push(hookLine(`${why}; it was set aside and the session starts again`));
    return { detector: made, meta: emptyMeta(now), restored: false };
  }
  if (stored === null) return { detector: made, meta: emptyMeta(now), restored: false };
  try {
    made.restore(stored.snapshot);
    return { detector: made, meta: stored.meta ?? emptyMeta(now), restored: true };
  } catch (e) {
    // a loopwatch error other than SnapshotError (no room in memory, ...) says nothing against the bytes
    if (isLoopwatchError(e) && !(e instanceof SnapshotError)) throw e;
    // anything else the bytes made restore() throw: they are not a state to decide on, a fresh session
    made.dispose();
    file.setAside();
    notes.push(hookLine(`the state of session ${session} could not be read (${(e as Error).message}); it was set aside and the session starts again`));
    return { detector: hookDetector(detection, call.session), meta: emptyMeta(now), restored: false };
  }
}

/**
 * Where decide() got to: the session's file, once its folder is known to be private and the call counted in;
 * for a `decline`, the calls it took as not run (those still waiting: the decision log names only them).
 */
interface Reached {
  file: SessionFile | null;
  notRun?: readonly LiveCall[];
  /** The records of calls that ran without the agent's after-event (HookAgent.missedRecords), with their decisions. */
  missed?: { readonly call: HookCall; readonly decision: LiveDecision }[];
  /** The decision's verdict, when it repeated what the hook last said and was kept quiet (said-once.ts). */
  repeat?: LiveDecision;
}

/**
 * Records the calls still waiting that ran without the agent's after-event (`missed`, the codec's
 * HookAgent.missedRecords), before the hook's own call (missed-records.ts: never the record of that call); returns
 * the session's notes with each decision counted. A record the detector refuses is passed over.
 */
function recordMissed(detector: LoopDetector, missed: MissedRecords, meta: SessionMeta, reached: Reached): SessionMeta {
  const waiting = detector.waiting();
  if (waiting.length === 0) return meta;
  for (const m of missed(waiting)) {
    let decision: LiveDecision;
    try {
      decision = detector.record(m.call);
    } catch (e) {
      if (e instanceof InvalidEventError) continue;
      throw e;
    }
    meta = withDecision(meta, m, decision, Date.now());
    (reached.missed ??= []).push({ call: m, decision });
  }
  return meta;
}

/** The codec's reading of the records an agent never sent, bound to the hook's payload and call (missed-records.ts). */
type MissedRecords = (waiting: readonly LiveCall[]) => readonly HookCall[];

/**
 * Loads the session, decides, saves it (the lock held throughout). Returns null for a session's end, a
 * declined call and a prompt (a change to a session that has a state; nothing to do for one that has none:
 * a prompt that only answers the agent ends its turn, LoopDetector.endTurn, a new one gives a fresh start).
 */
function decide(call: HookCall, detection: LoopDetectorOptions, options: HookRunOptions, notes: string[], reached: Reached, says: (d: LiveDecision) => boolean, missed?: MissedRecords): LiveDecision | null {
  if (call.phase === 'decline' && declinedCalls(call).length === 0) return null; // an empty batch: nothing to change
  const file = new SessionFile(options.stateDir, call.agent, call.session);
  const tightened = prepareStateFolder(options.stateDir);
  if (tightened !== null) notes.push(hookLine(tightened));
  if (call.phase === 'propose' || call.phase === 'record') {
    // counted in before waiting: a hook that never gets through (a wait given up, a failure, the agent
    // killing it) leaves its call counted in and not checked
    file.countCall(call.phase === 'propose' ? 'p' : 'r');
    reached.file = file;
  }
  // made before the lock is taken: the WebAssembly detector's set-up is this hook's own, not the session's
  let detector = call.phase === 'end' ? null : hookDetector(detection, call.session);
  let release: (() => void) | null = null;
  try {
    release = acquireLock(file.lockPath, options.lock);
    if (release === null) throw new Error(`the state of session ${JSON.stringify(cutText(call.session, 80))} stayed locked by another hook`);
    if (detector === null) {
      if (call.eventName !== INTERRUPT) file.remove();
      return null;
    }
    const restored = restore(file, call, detection, detector, notes);
    detector = restored.detector;
    // calls that ran without their after-event (a Codex patch that did not apply) are recorded first: they came before this one
    const meta = restored.restored && missed !== undefined && call.phase !== 'decline' ? recordMissed(detector, missed, restored.meta, reached) : restored.meta;
    if (call.phase === 'decline') {
      // the call did not run (Claude Code's PermissionDenied, a batch's calls still waiting): never recorded as run, no longer in flight
      if (restored.restored) {
        const d = detector;
        const notRun = declinedCalls(call).filter((c) => d.didNotRun(c));
        reached.notRun = notRun;
        if (notRun.length > 0) file.write(detector.snapshot(), restored.meta); // a batch whose calls all ran changes nothing
      }
      return null;
    }
    if (call.phase === 'prompt') {
      if (!restored.restored) return null;
      // an answer to the agent's question, a task's notification: no fresh start (src/text/prompt-origin.ts),
      // but the agent's turn ended all the same: the calls still waiting did not run (declined at its prompt)
      if (call.answer === true) {
        if (detector.endTurn() || reached.missed !== undefined) file.write(detector.snapshot(), meta);
      } else {
        detector.freshStart();
        file.write(detector.snapshot(), withSaid(meta, undefined)); // a fresh start: what was said is forgotten
      }
      return null;
    }
    const verdict = call.phase === 'propose' ? detector.propose(call.call) : detector.record(call.call);
    // a warning said once: one that would say nothing new is kept quiet (said-once.ts)
    const spoken = speak(verdict, meta.said, says);
    if (spoken.repeat !== undefined) reached.repeat = verdict;
    file.write(detector.snapshot(), withSaid(withDecision(meta, call, spoken.decision, Date.now()), spoken.said));
    return spoken.decision;
  } finally {
    release?.();
    detector?.dispose();
    // after the session's lock: a session's end (and an interrupt) ends its subagents, each under its own lock
    if (call.phase === 'end' && !isSubagentSession(call.session)) endSubagents(options.stateDir, call.agent, call.session, options.lock);
  }
}

/**
 * What the reply may say: whether the agent's version reads a warning before a call (asked only when the
 * reply holds a warning: it reads the transcript), and the allowlist's notice.
 */
function replyContext(agent: HookAgent, payload: Readonly<Record<string, unknown>>, d: LiveDecision, options: HookRunOptions, notice: string | undefined): ReplyContext {
  const warning = d.phase === 'propose' ? d.action === 'warn' || d.action === 'ask' : d.verdict !== null;
  const version = warning ? (transcriptVersion(agent.name, payload.transcript_path) ?? versionIn(options.agentVersion ?? '')) : undefined;
  return { warnsBefore: warnsBefore(agent.name, version), ...(notice === undefined ? {} : { notice }) };
}

/** Appends the decision to the decision log, when there is one; a failure is one more note. */
function log(options: HookRunOptions, call: HookCall, decision: LoggedDecision, notes: string[]): void {
  if (options.log === undefined) return;
  // agents run hooks in the project's folder: a relative name would be a file of whatever project it is
  // (and LOOPWATCH_DECISION_LOG can come from a project's .env, which Gemini CLI loads)
  const failed = isAbsolute(options.log) ? appendDecisionLine(options.log, decisionLine(call, decision), decisionLogCap(options.env)) : `the decision log ${options.log} is not written: it is a relative path, which would name a file in the project the agent works in; name it by an absolute path`;
  if (failed !== null) notes.push(hookLine(failed));
}

/**
 * Logs a `decline`: Claude Code's PermissionDenied as it named its call; a PostToolBatch with only its calls
 * that did not run (`notRun`), and nothing when every call of it ran.
 */
function logNotRun(options: HookRunOptions, call: HookCall, notRun: readonly LiveCall[], notes: string[]): void {
  if (call.declined === undefined) {
    log(options, call, { action: 'allow', notRun: true }, notes);
    return;
  }
  if (notRun.length > 0) log(options, { ...call, declined: notRun }, { action: 'allow', notRun: true }, notes);
}

/**
 * A file system error met while keeping a session's state, in words: the file and what went wrong, and what
 * to do, with the hook's own way out (another state folder) when it is about the state folder; Node's text
 * (`EACCES: permission denied, open '.../x.lock'`) said neither.
 */
function stateFailure(e: unknown, stateDir: string): string {
  const f = fileFailure(e);
  // a write to an open file names no path (EFBIG under a file size limit, ENOSPC): the state's files are the
  // only ones the hook writes while it keeps a session's state
  const inState = f.path === undefined || isInFolder(f.path, stateDir);
  if (!inState) return f.fix === null ? f.text : `${f.text}; ${f.fix}`;
  const what = f.path === undefined || f.path === stateDir ? f.verb : `${f.verb} ${f.path.slice(stateDir.length + 1)}`;
  const another = 'give the hook another state folder (--state-dir DIR in its command, or LOOPWATCH_STATE_DIR)';
  return `the session's state cannot be kept in ${stateDir} (cannot ${what}: ${f.why}); ${f.fix === null ? another : `${f.fix}, or ${another}`}`;
}

/** The session a payload that could not be decoded names (its `session_id`, when the hooks take it), for its notice. */
function noticeSession(agent: string | undefined, payload: Record<string, unknown> | undefined): NoticeSession | null {
  if (payload === undefined) return null;
  try {
    return { agent: agent ?? 'unknown', session: sessionOf(payload) };
  } catch {
    return null; // a session id the hooks refuse (too long, a lone surrogate: hook-payload.ts) is no session to remember
  }
}

/**
 * The state folder when the hooks may write in it (prepareStateFolder: the user's own, made private; said
 * in `notes` when it was tightened), else null (a marker is then kept nowhere). Never throws.
 */
function privateStateDir(stateDir: string, notes: string[]): string | null {
  try {
    const tightened = prepareStateFolder(stateDir);
    if (tightened !== null) notes.push(hookLine(tightened));
    return stateDir;
  } catch {
    return null;
  }
}

/**
 * A bad `LOOPWATCH_DECISION_LOG_MAX_BYTES` where a decision log is kept: said on stderr each call (one of
 * `notes`), and returned for the person once per session and value (else undefined).
 */
function logCapNotice(options: HookRunOptions, call: HookCall, notes: string[]): string | undefined {
  if (options.log === undefined) return undefined;
  const problem = decisionLogCapProblem(options.env);
  if (problem === null) return undefined;
  notes.push(hookLine(problem));
  return toldBefore(options.stateDir, `log size\n${problem}\n${call.agent}\n${call.session}`) ? undefined : `loopwatch: ${problem}`;
}

/** Runs the hook on one payload, its bytes (UTF-8 only: hook-payload.ts) or its text (never throws). */
export function runHook(text: string | Uint8Array, options: HookRunOptions): HookReply {
  let hook: { agent: HookAgent; call: HookCall };
  let agent: HookAgent | null = null;
  let payload: Record<string, unknown> | undefined;
  try {
    payload = parsePayload(text);
    const found = agentFor(payload, options.agent);
    agent = found.agent;
    const phase = phaseOf(agent, found.eventName);
    if (phase === null) return SILENT; // an event about something else than tool calls
    hook = { agent, call: withTurn(agent, payload, agent.decode(payload, found.eventName, phase)) };
  } catch (e) {
    const as = agent === null ? '' : ` as ${agent.title}'s${options.agent === undefined ? ' (detected from hook_event_name)' : ''}`;
    const session = noticeSession(agent?.name ?? options.agent, payload);
    const notes: string[] = [];
    const tell = tellUnchecked(session === null ? null : privateStateDir(options.stateDir, notes), session);
    return unchecked(`the hook payload could not be read${as}: ${(e as Error).message}`, options, null, notes.join(''), tell);
  }
  const notes: string[] = [];
  const reached: Reached = { file: null };
  try {
    const tool = hook.call.phase === 'propose' || hook.call.phase === 'record';
    const allowlist = tool ? projectAllowlist(payload.cwd, options.stateDir, options.env) : { rules: [] };
    if (allowlist.notice !== undefined) notes.push(hookLine(allowlist.notice));
    const codec = hook.agent;
    const missed: MissedRecords | undefined = codec.missedRecords === undefined ? undefined : (waiting) => missedRecordsFor(codec, payload, hook.call, waiting);
    const replyWith = (notice: string | undefined) => (d: LiveDecision): string => hook.agent.reply(hook.call, d, replyContext(hook.agent, payload, d, options, notice === undefined ? undefined : redactSecrets(notice)));
    const reply = replyWith(allowlist.notice);
    // a decision is said when the agent's reply for it is not the reply for `allow`
    const says = saidBy(reply);
    const decision = decide(hook.call, hookDetection(options.detection, [hook.agent], allowlist.rules), options, notes, reached, says, missed);
    // after the lock: no hook waits on these
    reached.file?.countCall(hook.call.phase === 'propose' ? 'P' : 'R');
    for (const m of reached.missed ?? []) log(options, m.call, loggedDecision(m.decision), notes);
    if (decision !== null) log(options, hook.call, loggedSpoken(decision, reached.repeat?.verdict ?? undefined), notes);
    else if (hook.call.phase === 'decline') logNotRun(options, hook.call, reached.notRun ?? [], notes); // scan of the log forgets them too
    sweepIfDue(options.stateDir);
    if (tool) uncheckedCleared(options.stateDir, hook.call);
    const logNotice = tool ? logCapNotice(options, hook.call, notes) : undefined;
    // variables Node acted on as the hook started: the line that started it is old, or Windows' (start-environment-notice.ts)
    // and variables that run the project's code before any hook command (project-preload.ts)
    const env = options.env ?? process.env;
    const started = tool ? [startEnvironmentNotice(options.stateDir, hook.call, env), projectPreloadNotice(options.stateDir, hook.call, env, payload.cwd)].filter((n) => n !== undefined) : [];
    for (const n of started) notes.push(hookLine(n));
    const notices = [allowlist.notice, ...started.map((n) => `loopwatch: ${n}`), logNotice].filter((n): n is string => n !== undefined);
    const stdout = decision === null ? '' : notices.length === 0 ? reply(decision) : replyWith(notices.join('\n'))(decision);
    return { stdout, stderr: notes.join(''), exitCode: 0 };
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const label = err.code ?? err.name ?? 'Error';
    const why = e instanceof NotPrivateError ? `the state folder ${err.message}` : typeof err.code === 'string' ? stateFailure(e, options.stateDir) : err.message.startsWith(label) ? err.message : `${label}: ${err.message}`;
    const denied = options.failClosed === true && hook.call.phase === 'propose';
    const tool = hook.call.phase === 'propose' || hook.call.phase === 'record';
    if (tool) log(options, hook.call, { action: denied ? 'deny' : 'allow', unchecked: why }, notes);
    // a state folder refused as not the user's own is not written to (its markers neither): told on each call
    const tell = tool && tellUnchecked(e instanceof NotPrivateError ? null : options.stateDir, hook.call);
    return unchecked(`${hook.agent.title}: ${why}`, options, hook, notes.join(''), tell);
  }
}
