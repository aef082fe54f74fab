/**
 * OpenTelemetry GenAI spans in OTLP/JSON: a document `{resourceSpans: [{resource, scopeSpans: [{scope,
 * spans}]}]}`, or a collector file-exporter dump with one such export per line. Each span whose
 * `gen_ai.operation.name` is `execute_tool` is a call: the tool `gen_ai.tool.name`, the args
 * `gen_ai.tool.call.arguments` (parsed when JSON text; left unset when not recorded, and the call is then
 * compared by tool name alone), the result `gen_ai.tool.call.result`. A span with status code 2 (error) or
 * an `error.type` is a known failure (`event.error` the status message, else the error type); any other is
 * a known success. Other spans are passed over, but a `gen_ai.conversation.id` on any span of a trace names
 * the session of the trace's tool spans that carry none; without one the session is the trace id. Ids may be
 * hex or base64 and are compared as hex.
 *
 * Exporters write spans as they end, not as they start, so calls are held and released ordered by
 * `startTimeUnixNano` within each session: all of an input's calls when it has at most
 * {@link MAX_HELD_SPANS}, else the earliest-starting half each time that many are held. A document that is
 * one JSON value (not one export per line) is parsed whole: the format leaves no other way.
 */
import { describe } from '../options/checks.js';
import type { FormatReader, InputName } from './format-reader.js';
import type { Outcome } from './held-calls.js';
import { isRecord, parseArguments } from './json-value.js';
import { attributeMap, otlpId, unixNano } from './otlp-json.js';
import type { RecordUnit } from './read-records.js';
import { toolEvent } from './session-calls.js';
import { type TraceItem, issue } from './trace-record.js';

/** Tool spans an input's reader holds at most before releasing the earliest-starting half. */
export const MAX_HELD_SPANS = 10_000;
/** Traces whose conversation id is remembered at most (the oldest is forgotten first). */
const MAX_TRACES = 10_000;

interface SpanCall {
  readonly conversation: string | undefined;
  readonly traceId: string;
  readonly start: bigint;
  readonly seq: number;
  readonly tool: string;
  readonly args: unknown;
  readonly outcome: Outcome;
  readonly line: number;
}

const isErrorStatus = (status: unknown): boolean => isRecord(status) && (status.code === 2 || status.code === 'STATUS_CODE_ERROR');
const idText = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined);

/** A reader of OTLP/JSON GenAI spans for `input`. */
export function createOtelReader(input: InputName): FormatReader {
  const held: SpanCall[] = [];
  const conversations = new Map<string, string>();
  let seq = 0;
  const bad = (unit: RecordUnit, message: string): TraceItem => issue('bad-record', unit.file, unit.line, `${message}; skipped`);

  function* span(s: unknown, unit: RecordUnit, where: string): Generator<TraceItem> {
    if (!isRecord(s)) return yield bad(unit, `${where}: expected a span object, received ${describe(s)}`);
    const attrs = attributeMap(s.attributes);
    const traceId = otlpId(s.traceId, 16);
    if (traceId === null) return yield bad(unit, `${where}: "traceId" must be 16 bytes in hex or base64, received ${describe(s.traceId)}`);
    const conversation = idText(attrs.get('gen_ai.conversation.id'));
    if (conversation !== undefined && !conversations.has(traceId)) {
      conversations.set(traceId, conversation);
      if (conversations.size > MAX_TRACES) conversations.delete(conversations.keys().next().value!);
    }
    if (attrs.get('gen_ai.operation.name') !== 'execute_tool') return;
    const tool = attrs.get('gen_ai.tool.name');
    if (typeof tool !== 'string' || tool === '') return yield bad(unit, `${where}: execute_tool span without a "gen_ai.tool.name" (received ${describe(tool)})`);
    const args = attrs.has('gen_ai.tool.call.arguments') ? parseArguments(attrs.get('gen_ai.tool.call.arguments')) : undefined;
    const result = attrs.get('gen_ai.tool.call.result');
    const errorType = attrs.get('error.type');
    const failed = isErrorStatus(s.status) || (errorType !== undefined && errorType !== '');
    const message = isRecord(s.status) && typeof s.status.message === 'string' && s.status.message !== '' ? s.status.message : undefined;
    const outcome: Outcome = failed ? { result, error: message ?? errorType ?? true, errorInfo: 'known' } : { result, errorInfo: 'absent' };
    held.push({ conversation, traceId, start: unixNano(s.startTimeUnixNano) ?? 0n, seq: seq++, tool, args, outcome, line: unit.line });
  }

  /** Releases the `n` earliest-starting calls held. */
  function* release(n: number): Generator<TraceItem> {
    held.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.seq - b.seq));
    for (const c of held.splice(0, n)) {
      const session = c.conversation ?? conversations.get(c.traceId) ?? c.traceId;
      const event = toolEvent(c.tool, c.args, c.outcome.result, c.outcome.error, undefined, undefined, undefined);
      yield { kind: 'call', session, event, errorInfo: c.outcome.errorInfo, file: input.file, line: c.line };
    }
  }

  return {
    *record(unit: RecordUnit): Generator<TraceItem> {
      const v = unit.value;
      if (!isRecord(v) || !Array.isArray(v.resourceSpans)) return yield bad(unit, `expected an OTLP/JSON trace export (an object with a "resourceSpans" array), received ${isRecord(v) ? 'an object without one' : describe(v)}`);
      for (let r = 0; r < v.resourceSpans.length; r++) {
        const rs: unknown = v.resourceSpans[r];
        const scopes = isRecord(rs) ? (rs.scopeSpans ?? rs.instrumentationLibrarySpans) : undefined;
        if (!Array.isArray(scopes)) {
          yield bad(unit, `resourceSpans[${r}] has no "scopeSpans" array`);
          continue;
        }
        for (let k = 0; k < scopes.length; k++) {
          const spans: unknown = isRecord(scopes[k]) ? (scopes[k] as Record<string, unknown>).spans : undefined;
          if (!Array.isArray(spans)) continue;
          for (let i = 0; i < spans.length; i++) yield* span(spans[i], unit, `resourceSpans[${r}].scopeSpans[${k}].spans[${i}]`);
        }
      }
      if (held.length > MAX_HELD_SPANS) yield* release(held.length - MAX_HELD_SPANS / 2);
    },
    *finish(): Generator<TraceItem> {
      yield* release(held.length);
    },
  };
}
