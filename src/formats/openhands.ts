/**
 * OpenHands event streams: actions and observations, as the event store writes them (a folder
 * `sessions/<id>/events/` of `<N>.json` files, read as one input in numeric order), as a JSON array or JSON
 * Lines of events (a saved trajectory), or as the `history` of each line of an evaluation's `output.jsonl`
 * (`{instance_id, history: [...]}`: one session per line, named by `instance_id`). An event is
 * `{id, source, action, args, tool_call_metadata?, ...}` or `{id, source, observation, cause, content,
 * extras, success?, ...}`.
 *
 * An agent action other than a message or a state change (run, read, edit, browse, call_tool_mcp, think,
 * finish, ...) is a call: the tool `tool_call_metadata.function_name` (the action when it has none), the
 * args its `args` without `thought`, which is the text. The observation whose `cause` is the action's `id`
 * is its result (`content`): an `error` or `user_rejected` observation, a command's exit code other than 0
 * (-1, still running, says nothing), `success: false` or an `error` in the extras is a known failure,
 * anything else a known success. Observations answering no call (of user or system actions) are passed
 * over. Calls of one model response share a `round`. The session is the folder's conversation id, else the
 * input's name.
 */
import { describe } from '../options/checks.js';
import type { FormatReader, InputName } from './format-reader.js';
import { HeldCalls, type Outcome, failure } from './held-calls.js';
import { isRecord } from './json-value.js';
import type { RecordUnit } from './read-records.js';
import { type TraceItem, issue } from './trace-record.js';

/** Actions that are not tool calls. */
const NOT_CALLS = new Set(['message', 'system', 'recall', 'change_agent_state', 'condensation', 'condensation_request', 'null', 'pause', 'resume', 'stop', 'start', 'loop_recovery']);
const FAILED = new Set(['error', 'user_rejected']);

/** What an observation says about the call it answers. */
function observationOutcome(o: Record<string, unknown>): Outcome {
  const result = o.content;
  const extras = isRecord(o.extras) ? o.extras : {};
  const exit = isRecord(extras.metadata) ? extras.metadata.exit_code : undefined;
  if (FAILED.has(o.observation as string) || extras.error === true) return failure(result);
  if (typeof exit === 'number') return exit === 0 ? { result, errorInfo: 'absent' } : exit === -1 ? { result, errorInfo: 'unknown' } : failure(result);
  return o.success === false ? failure(result) : { result, errorInfo: 'absent' };
}

/** Reads events into one session's calls. */
class EventSession {
  readonly calls: HeldCalls;
  private round = -1;
  private response: unknown;

  constructor(session: string) {
    this.calls = new HeldCalls(session);
  }

  /** The items of one event, found at `unit`; `where` names it in issues. */
  *event(e: unknown, unit: RecordUnit, where: string): Generator<TraceItem> {
    const bad = (message: string): TraceItem => issue('bad-record', unit.file, unit.line, `${where}${message}; skipped`);
    if (!isRecord(e) || (typeof e.action !== 'string' && typeof e.observation !== 'string')) {
      return yield bad(`expected an OpenHands event (an object with an "action" or "observation"), received ${isRecord(e) ? 'an object with neither' : describe(e)}`);
    }
    if (typeof e.action === 'string') {
      if (e.source !== 'agent' || NOT_CALLS.has(e.action)) return;
      if (typeof e.id !== 'number') return yield bad(`action "${e.action}" has no numeric "id" (received ${describe(e.id)})`);
      const meta = isRecord(e.tool_call_metadata) ? e.tool_call_metadata : undefined;
      const tool = typeof meta?.function_name === 'string' && meta.function_name !== '' ? meta.function_name : e.action;
      const response = isRecord(meta?.model_response) ? meta.model_response.id : undefined;
      if (response === undefined || response !== this.response) this.round++;
      this.response = response;
      const { thought, ...args } = isRecord(e.args) ? e.args : {};
      const text = typeof thought === 'string' && thought !== '' ? thought : undefined;
      this.calls.hold(String(e.id), { tool, args, text, round: this.round, file: unit.file, line: unit.line });
    } else if (typeof e.cause === 'number') {
      this.calls.settle(String(e.cause), observationOutcome(e));
    }
    yield* this.calls.release();
  }
}

/** A reader of OpenHands events for `input` (a folder of event files, a trajectory, or evaluation output). */
export function createOpenHandsReader(input: InputName): FormatReader {
  let stream: EventSession | null = null;
  return {
    *record(unit: RecordUnit): Generator<TraceItem> {
      const v = unit.value;
      if (isRecord(v) && Array.isArray(v.history)) {
        const id = v.instance_id;
        const s = new EventSession(typeof id === 'string' && id !== '' ? id : typeof id === 'number' ? String(id) : unit.fallbackSession);
        for (let i = 0; i < v.history.length; i++) yield* s.event(v.history[i], unit, `history event ${i}: `);
        yield* s.calls.releaseAll();
        return yield { kind: 'end', session: s.calls.session, file: input.file };
      }
      stream ??= new EventSession(input.name);
      yield* stream.event(v, unit, '');
    },
    *finish(): Generator<TraceItem> {
      if (stream === null) return;
      yield* stream.calls.releaseAll();
      yield { kind: 'end', session: stream.calls.session, file: input.file };
    },
  };
}
