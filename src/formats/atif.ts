/**
 * ATIF, the Agent Trajectory Interchange Format (Harbor / Terminal-Bench 2 trials' `agent/trajectory.json`,
 * and other writers of the spec, v1.0-v1.7): one JSON document `{schema_version: "ATIF-v1.x", session_id,
 * agent, steps: [...]}` per run. An `agent` step's `tool_calls` (`{tool_call_id, function_name, arguments}`)
 * are its calls, `round` the step's position among the agent steps; a result of any step's
 * `observation.results` (`{source_call_id, content}`) answers the call of that id. A result without one
 * answers its own step's calls that no result named, the last such result the last such call (Harbor's
 * terminus-2 writes one result, the terminal's output after all of the step's keystrokes, without an id "to
 * indicate the observation applies to the entire step"); with no such call (an action outside tool calling,
 * a harness note) it is passed over. The step's `message` is its first call's text; its
 * `reasoning_content` is not (as other readers leave thoughts out). The session is `session_id`, else the
 * record's place in the input. The spec never says whether a call failed, but writers do, outside it
 * ({@link resultFailed}): a result they mark failed is a known failure (`event.error` its text, or `true`
 * when it has none), one they mark not failed a known success; an unmarked one says nothing (`unknown`).
 */
import { describe } from '../options/checks.js';
import { nonEmpty } from './conversation-record.js';
import type { FormatReader } from './format-reader.js';
import { isRecord, parseArguments } from './json-value.js';
import type { RecordUnit } from './read-records.js';
import { SessionCalls } from './session-calls.js';
import { type TraceItem, issue } from './trace-record.js';
import { UnknownKinds } from './unknown-kinds.js';

/** The step sources of the spec; a step of another is said once per input (its calls, if any, are an issue). */
const SOURCES: ReadonlySet<string> = new Set(['system', 'user', 'agent']);

/** Versions of the spec the reader knows: `schema_version` starts with this. */
export const ATIF_VERSION = /^ATIF-v\d/;

/** Whether `v` is an ATIF trajectory by its marks: an `ATIF-v...` `schema_version` and a `steps` array. */
export function isAtifTrajectory(v: Readonly<Record<string, unknown>>): boolean {
  return typeof v.schema_version === 'string' && ATIF_VERSION.test(v.schema_version) && Array.isArray(v.steps);
}

/** The items of one ATIF trajectory document; `unknown` says a step source the spec does not name once per input. */
export function* readAtif(unit: RecordUnit, unknown = new UnknownKinds('ATIF step source')): Generator<TraceItem> {
  const v = unit.value;
  if (!isRecord(v) || !Array.isArray(v.steps)) {
    return yield issue('bad-record', unit.file, unit.line, `expected an ATIF trajectory (an object with a "steps" array), received ${isRecord(v) ? 'an object without one' : describe(v)}`);
  }
  if (v.session_id !== undefined && v.session_id !== null && nonEmpty(v.session_id) === undefined) {
    return yield issue('bad-record', unit.file, unit.line, `"session_id" must be a non-empty string, received ${describe(v.session_id)}`);
  }
  const calls = new SessionCalls(nonEmpty(v.session_id) ?? unit.fallbackSession, unit.file, unit.line);
  let round = 0;
  for (let i = 0; i < v.steps.length; i++) {
    const s: unknown = v.steps[i];
    if (!isRecord(s)) {
      yield stepIssue(unit, s, i, `expected an object, received ${describe(s)}`);
      continue;
    }
    const own: number[] = [];
    if (s.source === 'agent') yield* agentCalls(unit, calls, s, i, round++, own);
    else if (s.tool_calls !== undefined && s.tool_calls !== null) yield stepIssue(unit, s, i, `"tool_calls" of a step whose source is ${describe(s.source)}, not "agent"`);
    else {
      const said = unknown.unless(SOURCES, s.source, unit.file, unit.line);
      if (said !== null) yield said;
    }
    yield* results(unit, calls, s, i, own);
  }
  yield* calls.items();
}

/** Holds the tool calls of agent step `i` (their positions into `own`), with an issue for each that names no function. */
function* agentCalls(unit: RecordUnit, calls: SessionCalls, s: Readonly<Record<string, unknown>>, i: number, round: number, own: number[]): Generator<TraceItem> {
  if (s.tool_calls === undefined || s.tool_calls === null) return;
  if (!Array.isArray(s.tool_calls)) return yield stepIssue(unit, s, i, `"tool_calls" must be an array, received ${describe(s.tool_calls)}`);
  let text = nonEmpty(s.message); // said once: the step's first call carries it
  for (let j = 0; j < s.tool_calls.length; j++) {
    const tc: unknown = s.tool_calls[j];
    const name = isRecord(tc) ? nonEmpty(tc.function_name) : undefined;
    if (!isRecord(tc) || name === undefined) {
      yield stepIssue(unit, s, i, `tool call ${j} has no "function_name" (received ${isRecord(tc) ? describe(tc.function_name) : describe(tc)})`);
      continue;
    }
    own.push(calls.call(typeof tc.tool_call_id === 'string' ? tc.tool_call_id : undefined, { tool: name, args: parseArguments(tc.arguments), text, round, ...stepId(s.step_id) }));
    text = undefined;
  }
}

/**
 * A malformed part of step `i`, named as a person finds it in the file: its place in `steps` and, when it has
 * one, its `step_id` (`steps[1] (step_id 2)`), the number verdicts name it by.
 */
function stepIssue(unit: RecordUnit, s: unknown, i: number, message: string): TraceItem {
  const id = isRecord(s) ? stepId(s.step_id).step : undefined;
  return issue('bad-record', unit.file, unit.line, `steps[${i}]${id === undefined ? '' : ` (step_id ${id})`}: ${message}; skipped`);
}

/**
 * The step number the trajectory gives a step (`step_id`, from 1 in the spec), so verdicts, `explain` and
 * the report name the step a person finds in the file; none (the call's position is used) when it is not
 * a whole number from 0.
 */
function stepId(id: unknown): { readonly step?: number } {
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? { step: id } : {};
}

/**
 * What a writer says of a result's failure, outside the spec: Harbor's Claude Code trajectories copy the
 * tool result's `is_error` into `extra.tool_result_is_error` (and `extra.tool_result_metadata.is_error`,
 * true only); other writers put an `is_error` on the result itself. True or false when one of them says,
 * undefined when none does.
 */
export function resultFailed(r: Readonly<Record<string, unknown>>): boolean | undefined {
  if (typeof r.is_error === 'boolean') return r.is_error;
  const extra = r.extra;
  if (!isRecord(extra)) return undefined;
  if (typeof extra.tool_result_is_error === 'boolean') return extra.tool_result_is_error;
  return isRecord(extra.tool_result_metadata) && extra.tool_result_metadata.is_error === true ? true : undefined;
}

/** The outcome of result `r`: its errorInfo and error, as its writer marks it ({@link resultFailed}). */
function outcomeOf(r: Readonly<Record<string, unknown>>): { readonly errorInfo: 'unknown' | 'known' | 'absent'; readonly error: unknown } {
  const failed = resultFailed(r);
  const error = failed === true ? (typeof r.content === 'string' && r.content !== '' ? r.content : true) : undefined;
  return { errorInfo: failed === undefined ? 'unknown' : failed ? 'known' : 'absent', error };
}

/**
 * Pairs the results of step `i`'s observation with their calls: by id, then the results without one with
 * the step's own calls (`own`) still unanswered, aligned at the end (the last result answers the last call).
 */
function* results(unit: RecordUnit, calls: SessionCalls, s: Readonly<Record<string, unknown>>, i: number, own: readonly number[]): Generator<TraceItem> {
  const o = s.observation;
  if (o === undefined || o === null) return;
  if (!isRecord(o) || !Array.isArray(o.results)) return yield stepIssue(unit, s, i, `"observation" must be an object with a "results" array, received ${isRecord(o) ? 'an object without one' : describe(o)}`);
  const idless: Readonly<Record<string, unknown>>[] = [];
  for (let j = 0; j < o.results.length; j++) {
    const r: unknown = o.results[j];
    if (!isRecord(r)) {
      yield stepIssue(unit, s, i, `observation result ${j}: expected an object, received ${describe(r)}`);
      continue;
    }
    if (r.source_call_id === undefined || r.source_call_id === null) {
      idless.push(r);
      continue;
    }
    if (typeof r.source_call_id !== 'string') {
      yield stepIssue(unit, s, i, `observation result ${j}: "source_call_id" must be a string, received ${describe(r.source_call_id)}`);
      continue;
    }
    const { errorInfo, error } = outcomeOf(r);
    const bad = calls.result(r.source_call_id, r.content, errorInfo, error);
    if (bad !== null) yield bad;
  }
  const open = own.filter((n) => !calls.answered(n));
  for (let k = 1; k <= Math.min(open.length, idless.length); k++) {
    const r = idless[idless.length - k]!;
    const { errorInfo, error } = outcomeOf(r);
    calls.resultAt(open[open.length - k]!, r.content, errorInfo, error);
  }
}

/** A reader of ATIF trajectories (one per record; only the step sources already said are kept between records). */
export function createAtifReader(): FormatReader {
  const unknown = new UnknownKinds('ATIF step source');
  return { record: (unit) => readAtif(unit, unknown), finish: () => [] };
}
