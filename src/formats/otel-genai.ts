/**
 * OpenTelemetry GenAI spans in OTLP/JSON: a document `{resourceSpans: [{resource, scopeSpans: [{scope,
 * spans}]}]}`, a collector file-exporter dump with one such export per line, or a trace as Grafana Tempo's
 * API returns it (`{batches: [...]}`, or `{trace: {resourceSpans: [...]}}` from its v2 API; older exports
 * name the scope lists `instrumentationLibrarySpans`). Each tool span is a call (see otel-tool-span.ts for
 * which spans are, and how Google ADK's attributes read): the tool, the args (parsed when JSON text; left
 * unset when not recorded, and the call is then compared by tool name alone), the result, and whether it
 * failed. Other spans are passed over, but a `gen_ai.conversation.id` (or ADK's
 * `gcp.vertex.agent.session_id`) on any span of a trace names the session of the trace's tool spans that
 * carry none; without one the session is the trace id. Ids may be hex or base64 and are compared as hex.
 *
 * Exporters write spans as they end, not as they start, so calls are held and released ordered by
 * `startTimeUnixNano` within each session: all of an input's calls when it has at most
 * {@link MAX_HELD_SPANS}, else the earliest-starting half each time that many are held. A document that is
 * one JSON value (not one export per line) is parsed whole: the format leaves no other way.
 */
import { describe } from '../options/checks.js';
import type { FormatReader, InputName } from './format-reader.js';
import type { Outcome } from './held-calls.js';
import { CappedMap } from './capped-map.js';
import { isRecord } from './json-value.js';
import { attributeMap, otlpId, resourceList, unixNano } from './otlp-json.js';
import { spanToolCall } from './otel-tool-span.js';
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

/** Attributes naming a span's conversation, in order of preference. */
const CONVERSATION_KEYS = ['gen_ai.conversation.id', 'gcp.vertex.agent.session_id'] as const;
const idText = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined);

/** A reader of OTLP/JSON GenAI spans for `input`. */
export function createOtelReader(input: InputName): FormatReader {
  const held: SpanCall[] = [];
  const conversations = new CappedMap<string, string>(MAX_TRACES);
  let seq = 0;
  const bad = (unit: RecordUnit, message: string): TraceItem => issue('bad-record', unit.file, unit.line, `${message}; skipped`);

  function* span(s: unknown, unit: RecordUnit, where: string): Generator<TraceItem> {
    if (!isRecord(s)) return yield bad(unit, `${where}: expected a span object, received ${describe(s)}`);
    const attrs = attributeMap(s.attributes);
    const traceId = otlpId(s.traceId, 16);
    if (traceId === null) return yield bad(unit, `${where}: "traceId" must be 16 bytes in hex or base64, received ${describe(s.traceId)}`);
    let conversation: string | undefined;
    for (const k of CONVERSATION_KEYS) conversation ??= idText(attrs.get(k));
    if (conversation !== undefined && !conversations.has(traceId)) {
      conversations.set(traceId, conversation);
    }
    const call = spanToolCall(s, attrs);
    if (call === null) return;
    if ('bad' in call) return yield bad(unit, `${where}: ${call.bad}`);
    held.push({ conversation, traceId, start: unixNano(s.startTimeUnixNano) ?? 0n, seq: seq++, tool: call.tool, args: call.args, outcome: call.outcome, line: unit.line });
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
      const found = resourceList(unit.value);
      if (found === null) return yield bad(unit, `expected an OTLP/JSON trace export (an object with a "resourceSpans" or "batches" array), received ${isRecord(unit.value) ? 'an object without one' : describe(unit.value)}`);
      const { key, list } = found;
      for (let r = 0; r < list.length; r++) {
        const rs: unknown = list[r];
        const scopes = isRecord(rs) ? (rs.scopeSpans ?? rs.instrumentationLibrarySpans) : undefined;
        if (!Array.isArray(scopes)) {
          yield bad(unit, `${key}[${r}] has no "scopeSpans" array`);
          continue;
        }
        for (let k = 0; k < scopes.length; k++) {
          const spans: unknown = isRecord(scopes[k]) ? (scopes[k] as Record<string, unknown>).spans : undefined;
          if (!Array.isArray(spans)) continue;
          for (let i = 0; i < spans.length; i++) yield* span(spans[i], unit, `${key}[${r}].scopeSpans[${k}].spans[${i}]`);
        }
      }
      if (held.length > MAX_HELD_SPANS) yield* release(held.length - MAX_HELD_SPANS / 2);
    },
    *finish(): Generator<TraceItem> {
      yield* release(held.length);
    },
  };
}
