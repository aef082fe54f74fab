/**
 * What one OTLP span says about a tool call, under the GenAI conventions and as Google ADK (Python and JS)
 * writes its spans:
 *
 * - a tool span has `gen_ai.operation.name` = `execute_tool`, or, with no operation at all, a name
 *   `execute_tool <tool>`: ADK names the span before the tool runs and sets its attributes after, so a tool
 *   that throws leaves a span with the name, an error status and an `exception` event, and nothing else;
 * - the tool is `gen_ai.tool.name`, else the name's tail; ADK's `(merged tools)` span (parallel calls, each
 *   already a span of its own) is no call;
 * - the args are `gen_ai.tool.call.arguments`, else ADK's `gcp.vertex.agent.tool_call_args` (JSON text,
 *   parsed); the result `gen_ai.tool.call.result`, else `gcp.vertex.agent.tool_response`;
 * - status code 2 (or `STATUS_CODE_ERROR`) or an `error.type` is a known failure: the error is the status
 *   message, else the `exception` event's message, else the error or exception type; any other span is a
 *   known success.
 */
import { describe } from '../options/checks.js';
import type { Outcome } from './held-calls.js';
import { isRecord, parseArguments } from './json-value.js';
import { attributeMap } from './otlp-json.js';

/** Tool name ADK gives the span of a merged (parallel) tool response. */
export const ADK_MERGED_TOOLS = '(merged tools)';
const SPAN_NAME = 'execute_tool ';
const ARGS = ['gen_ai.tool.call.arguments', 'gcp.vertex.agent.tool_call_args'] as const;
const RESULTS = ['gen_ai.tool.call.result', 'gcp.vertex.agent.tool_response'] as const;

/** A tool call read from a span. */
export interface SpanToolCall {
  readonly tool: string;
  /** Undefined when the span recorded none. */
  readonly args: unknown;
  readonly outcome: Outcome;
}

const isErrorStatus = (status: unknown): boolean => isRecord(status) && (status.code === 2 || status.code === 'STATUS_CODE_ERROR');
const nonEmpty = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The first of `keys` that `attrs` holds, or undefined. */
function first(attrs: ReadonlyMap<string, unknown>, keys: readonly string[]): unknown {
  for (const k of keys) if (attrs.has(k)) return attrs.get(k);
  return undefined;
}

/** The attributes of the span's first `exception` event (an empty map when it has none). */
function exceptionOf(events: unknown): ReadonlyMap<string, unknown> {
  if (Array.isArray(events)) for (const e of events) if (isRecord(e) && e.name === 'exception') return attributeMap(e.attributes);
  return new Map();
}

/**
 * The tool call span `s` (attributes `attrs`) records; null when it records none (another operation, ADK's
 * merged span); `{bad}` for a tool span without a tool name.
 */
export function spanToolCall(s: Readonly<Record<string, unknown>>, attrs: ReadonlyMap<string, unknown>): SpanToolCall | null | { readonly bad: string } {
  const operation = attrs.get('gen_ai.operation.name');
  const named = typeof s.name === 'string' && s.name.startsWith(SPAN_NAME) ? s.name.slice(SPAN_NAME.length).trim() : undefined;
  if (operation !== 'execute_tool' && (operation !== undefined || named === undefined)) return null;
  const tool = attrs.get('gen_ai.tool.name') ?? (operation === undefined ? named : undefined);
  if (typeof tool !== 'string' || tool === '') return { bad: `execute_tool span without a "gen_ai.tool.name" (received ${describe(tool)})` };
  if (tool === ADK_MERGED_TOOLS || named === '(merged)') return null;
  const rawArgs = first(attrs, ARGS);
  const args = rawArgs === undefined ? undefined : parseArguments(rawArgs);
  const result = first(attrs, RESULTS);
  const errorType = nonEmpty(attrs.get('error.type'));
  if (!isErrorStatus(s.status) && errorType === undefined) return { tool, args, outcome: { result, errorInfo: 'absent' } };
  const exception = exceptionOf(s.events);
  const error = (isRecord(s.status) ? nonEmpty(s.status.message) : undefined) ?? nonEmpty(exception.get('exception.message')) ?? errorType ?? nonEmpty(exception.get('exception.type')) ?? true;
  return { tool, args, outcome: { result, error, errorInfo: 'known' } };
}
