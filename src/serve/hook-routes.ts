/**
 * The coding agents' hook payloads over HTTP (`POST /v1/hooks/claude-code`, `/v1/hooks/codex`,
 * `/v1/hooks/gemini`): the codecs of `loopwatch hook` (src/hooks/), the sessions in the server's engine
 * instead of state files, so a hook can be one `curl` rather than a Node process per tool call.
 *
 * ```
 * body (the hook's stdin) -> codec.decode -> withTurn (the transcript's tail, src/hooks/hook-turn.ts)
 *   -> the calls that ran without their after-event recorded (src/hooks/missed-records.ts: Codex's failed patches and MCP errors)
 *   -> service.propose | record | didNotRun | freshStart or endTurn (a prompt) | end
 *   -> a verdict that would repeat what the route last said to the session kept quiet (src/hooks/said-once.ts,
 *      its memory the service's SaidNotes: said-notes.ts)
 *   -> codec.reply -> body (the hook's stdout)
 * ```
 *
 * Inside someone else's agent a refusal would be read as the hook's output, so an unreadable payload, or
 * a call loopwatch fails on, is answered 200 with an empty body (the agent goes on as without loopwatch)
 * and the reason in a `Loopwatch-Unchecked` header. The route's agent is the codec used: a payload of
 * another agent is unchecked. The calls go through the CheckService, as every route's do, so they are
 * counted as /v1/propose and /v1/record count theirs. With a decision log (`serve --log FILE`), each
 * decision is a line of it as `loopwatch hook --log` writes it (src/hooks/decision-log.ts): the calls that ran
 * without their after-event first, as recorded, then the payload's own call; a line that cannot be written
 * is said in a `Loopwatch-Log-Error` header, the answer unchanged. The calls that did not run (Claude Code's
 * PermissionDenied, a PostToolBatch's calls still waiting) are lines as the hook writes them (`"notRun": true`).
 */
import type { ServerResponse } from 'node:http';
import { AGENTS, agentFor, phaseOf } from '../hooks/agents.js';
import { AGENT_NAMES, type AgentName, type HookAgent, type HookCall, PLAIN_REPLY, declinedCalls } from '../hooks/hook-agent.js';
import { appendDecisionLine, decisionLine, loggedSpoken } from '../hooks/decision-log.js';
import { saidBy, speak } from '../hooks/said-once.js';
import { missedRecordsFor } from '../hooks/missed-records.js';
import { parsePayload } from '../hooks/hook-payload.js';
import { withTurn } from '../hooks/hook-turn.js';
import { redactSecrets } from '../text/redact.js';
import { hasLoneSurrogate, LONE_SURROGATE_ID } from './call-schema.js';
import type { LiveCall, LiveDecision } from '../live/live-call.js';
import type { Verdict } from '../types.js';
import type { CheckService } from './check-service.js';
import type { HttpRefusal } from './http-refusal.js';
import { cutText } from '../text/shown-text.js';

/** What a hook route answers: the agent's output (possibly empty) and, when the call went unchecked, why. */
export interface HookAnswer {
  readonly body: string;
  readonly unchecked?: string;
  /** Why a decision log line could not be written (the last such reason), when one could not. */
  readonly logError?: string;
}

/** A decision log bound to one answer: appends lines, keeps the last failure. */
class AnswerLog {
  error: string | undefined;
  constructor(private readonly path: string | undefined) {}
  /** Appends `call`'s decision `d` (`repeat`: the verdict kept quiet, said-once.ts), when there is a log. */
  write(call: HookCall, d: LiveDecision, repeat?: Verdict): void {
    if (this.path === undefined) return;
    this.error = appendDecisionLine(this.path, decisionLine(call, loggedSpoken(d, repeat))) ?? this.error;
  }
  /**
   * Appends a `decline` as `loopwatch hook --log` does (hook-run.ts): Claude Code's PermissionDenied as it
   * named its call; a PostToolBatch with only its calls that did not run (`notRun`), nothing when all ran.
   */
  notRun(call: HookCall, notRun: readonly LiveCall[]): void {
    if (this.path === undefined) return;
    if (call.declined !== undefined && notRun.length === 0) return;
    const named = call.declined === undefined ? call : { ...call, declined: notRun };
    this.error = appendDecisionLine(this.path, decisionLine(named, { action: 'allow', notRun: true })) ?? this.error;
  }
  /** `a` with the log's failure, if any. */
  answer(a: HookAnswer): HookAnswer {
    return this.error === undefined ? a : { ...a, logError: this.error };
  }
}

/** Whether `name` is an agent the routes speak to. */
export function isAgentName(name: string): name is AgentName {
  return (AGENT_NAMES as readonly string[]).includes(name);
}

/** The engine's session of a hook call: the agent's session, kept apart per agent. */
function sessionOf(call: HookCall): string {
  return `${call.agent}:${call.session}`;
}

/**
 * Answers one hook payload of `agent`, its bytes (UTF-8 only, as `loopwatch hook` reads its stdin:
 * hook-payload.ts) or its text, through `service` (never throws); `log` the decision log to append to, if any.
 */
export function answerHook(service: CheckService, agent: AgentName, text: string | Uint8Array, log?: string): HookAnswer {
  let call: HookCall;
  let payload: Record<string, unknown>;
  try {
    payload = parsePayload(text);
    const found = agentFor(payload, agent);
    const phase = phaseOf(found.agent, found.eventName);
    if (phase === null) return { body: '' }; // an event about something else than tool calls
    // the call's model turn from the agent's transcript, as `loopwatch hook` reads it (a path serve cannot read: none)
    call = withTurn(found.agent, payload, found.agent.decode(payload, found.eventName, phase, 'served'), 'served');
    // the door's rule for session ids (call-schema.ts): a lone surrogate would share another id's state file
    if (hasLoneSurrogate(call.session)) throw new Error(`its session id ${LONE_SURROGATE_ID}`);
  } catch (e) {
    return { body: '', unchecked: `the hook payload could not be read as ${AGENTS[agent].title}'s: ${(e as Error).message}` };
  }
  const logged = new AnswerLog(log);
  try {
    const session = sessionOf(call);
    if (call.phase === 'end') {
      service.end(session);
      return { body: '' };
    }
    // the route's agent picks a config's family (gemini is the gemini-cli family, as `loopwatch hook` has it)
    const family = agent === 'gemini' ? 'gemini-cli' : agent;
    // calls that ran without their after-event (a Codex patch that did not apply) came before this one, and
    // before a prompt's fresh start or turn's end would take them as not run: recorded first, as `loopwatch hook` does
    recordMissed(service, AGENTS[agent], payload, call, session, family, logged);
    if (call.phase === 'prompt') {
      // an answer to the agent's question, a task's notification: no fresh start (src/text/prompt-origin.ts), but
      // the agent's turn ended all the same: the calls still waiting did not run (LoopDetector.endTurn, as hook-run.ts)
      if (call.answer === true) service.endTurn(session);
      else service.freshStart(session);
      return logged.answer({ body: '' });
    }
    const named = { ...call.call, session, agent: family };
    // the agents send an after-event for every call they ran: a proposal without one did not run (hook-run.ts)
    if (call.phase === 'decline') {
      const notRun = declinedCalls(call).filter((c) => service.didNotRun({ ...c, session, agent: named.agent }));
      logged.notRun(call, notRun);
      return logged.answer({ body: '' });
    }
    const d = call.phase === 'propose' ? service.propose(named, true) : service.record(named);
    const reply = (x: LiveDecision): string => AGENTS[agent].reply(call, { ...x, session: call.session }, PLAIN_REPLY);
    // a warning said once, as `loopwatch hook` says it: one that would say nothing new is kept quiet (said-once.ts)
    const spoken = speak(d, service.said.get(session), saidBy(reply));
    service.said.set(session, spoken.said);
    logged.write(call, spoken.decision, spoken.repeat);
    return logged.answer({ body: reply(spoken.decision) });
  } catch (e) {
    return logged.answer({ body: '', unchecked: `${(e as Error).name}: ${(e as Error).message}` });
  }
}

/**
 * Records the calls of engine session `session` still waiting that the agent's transcript shows ran
 * without their after-event (missed-records.ts, the codec's reading; a served payload's transcript is read
 * only when named `.jsonl` and accepted as a served transcript, as for its turn: transcript-open.ts), each a line of the decision log as the hook
 * writes it. A record the engine refuses is passed over: the payload's own call is answered all the same.
 */
function recordMissed(service: CheckService, codec: HookAgent, payload: Readonly<Record<string, unknown>>, call: HookCall, session: string, family: string, log: AnswerLog): void {
  if (codec.missedRecords === undefined) return;
  for (const m of missedRecordsFor(codec, payload, call, service.waiting(session), 'served')) {
    if (m.phase !== 'record') continue;
    try {
      log.write(m, service.record({ ...m.call, session, agent: family }));
    } catch {
      // refused (an invalid call, no room): the call stays waiting, as without its record
    }
  }
}

/** Whether a request's path is a hook route's (its refusals are sent as sendHookRefusal sends them). */
export function isHookPath(url: string | undefined): boolean {
  return (url ?? '').startsWith('/v1/hooks/');
}

/**
 * Sends a refusal to a hook (a 401, 403, 415, 503...): its status, an empty body and the reason in
 * `Loopwatch-Unchecked`, since the hook prints the body for the agent to read as its output.
 */
export function sendHookRefusal(res: ServerResponse, r: HttpRefusal): void {
  res.writeHead(r.status, { ...r.headers, 'content-length': '0', 'loopwatch-unchecked': uncheckedHeader(`${r.code}: ${r.message}`) });
  res.end();
}

/** The `Loopwatch-Unchecked` header's value: one line, redacted, ASCII, capped. */
export function uncheckedHeader(why: string): string {
  return redactSecrets(cutText(why, 400))
    .replace(/[^\x20-\x7e]/g, '?')
    .replace(/\s+/g, ' ');
}
