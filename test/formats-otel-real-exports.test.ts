/**
 * OpenTelemetry as real tools write it: a Grafana Tempo trace (`batches`, `instrumentationLibrarySpans`,
 * base64 ids, enum names for kinds and status codes; `{trace: {resourceSpans}}` from its v2 API) is
 * detected and read, and Google ADK's tool spans read with their args and results
 * (`gcp.vertex.agent.tool_call_args` / `tool_response`), without ADK's `execute_tool (merged)` span, and
 * with a tool that threw (a span with a name, an error status and an exception event, and no attributes)
 * kept as a failed call.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { TraceCall } from '../src/formats/trace-record.js';
import { hexId } from './helpers/format-fixtures.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-otel-real');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const b64 = (hex: string): string => Buffer.from(hex, 'hex').toString('base64');
const T0 = 1_767_607_200_000_000_000n;
const at = (ms: number): string => String(T0 + BigInt(ms) * 1_000_000n);
const calls = async (file: string) => {
  const items = await collect([file]);
  expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
  return items.filter((i): i is TraceCall => i.kind === 'call');
};

/** The spans of one ADK (Python) run, as its tracer writes them: invocation, agent, LLM calls and tools. */
function adkSpans(trace: string, withConversation: boolean): object[] {
  const span = (id: string, name: string, ms: number, attributes: object[], extra: object = {}) => ({
    traceId: b64(trace), spanId: b64(hexId(id, 8)), parentSpanId: b64(hexId('agent', 8)), name, kind: 'SPAN_KIND_INTERNAL', startTimeUnixNano: at(ms), endTimeUnixNano: at(ms + 50), attributes, status: {}, ...extra,
  });
  /** ADK (Python) writes both as json.dumps does: `{"order": 7}`. */
  const tool = (id: string, ms: number, name: string, args: string, response: string) => span(id, `execute_tool ${name}`, ms, [
    str('gen_ai.operation.name', 'execute_tool'), str('gen_ai.tool.description', `${name} tool`), str('gen_ai.tool.name', name), str('gen_ai.tool.type', 'FunctionTool'),
    str('gcp.vertex.agent.llm_request', '{}'), str('gcp.vertex.agent.llm_response', '{}'), str('gcp.vertex.agent.tool_call_args', args),
    str('gen_ai.tool.call.id', `adk-${id}`), str('gcp.vertex.agent.event_id', `ev-${id}`), str('gcp.vertex.agent.tool_response', response),
  ]);
  const llm = (id: string, ms: number) => span(id, 'call_llm', ms, [str('gen_ai.system', 'gcp.vertex.agent'), str('gen_ai.request.model', 'gemini-2.5-flash'), str('gcp.vertex.agent.invocation_id', 'e-1'), str('gcp.vertex.agent.session_id', 'adk-session-9'), str('gcp.vertex.agent.event_id', `ev-${id}`)]);
  return [
    tool('t1', 100, 'lookup_order', '{"order": 7}', '{"status": "locked"}'),
    tool('t2', 110, 'lookup_order', '{"order": 8}', '{"status": "shipped"}'),
    span('merged', 'execute_tool (merged)', 160, [str('gen_ai.operation.name', 'execute_tool'), str('gen_ai.tool.name', '(merged tools)'), str('gen_ai.tool.description', '(merged tools)'), str('gen_ai.tool.call.id', 'ev-m'), str('gcp.vertex.agent.tool_call_args', 'N/A'), str('gcp.vertex.agent.tool_response', '{"content": {}}')]),
    llm('l1', 50),
    span('t3', 'execute_tool refund', 300, [], {
      status: { code: 'STATUS_CODE_ERROR', message: 'ValueError: order 7 is locked' },
      events: [{ timeUnixNano: at(340), name: 'exception', attributes: [str('exception.type', 'ValueError'), str('exception.message', 'order 7 is locked'), str('exception.stacktrace', 'Traceback ...')] }],
    }),
    llm('l2', 200),
    span('agent', 'invoke_agent support', 0, withConversation ? [str('gen_ai.operation.name', 'invoke_agent'), str('gen_ai.agent.name', 'support'), str('gen_ai.conversation.id', 'adk-session-9')] : [], { parentSpanId: b64(hexId('inv', 8)) }),
  ];
}

describe('OpenTelemetry exports of real tools', () => {
  it('should detect and read a Grafana Tempo trace (batches, instrumentationLibrarySpans, base64 ids) holding ADK spans', async () => {
    const trace = hexId('tempo-trace');
    const doc = { batches: [{ resource: { attributes: [str('service.name', 'support-agent')] }, instrumentationLibrarySpans: [{ instrumentationLibrary: { name: 'gcp.vertex.agent', version: '1.18.0' }, spans: adkSpans(trace, true) }] }] };
    const file = write('tempo-trace.json', JSON.stringify(doc, null, 2));
    expect((await calls(file)).map((c) => [c.session, c.event, c.errorInfo])).toEqual([
      ['adk-session-9', { tool: 'lookup_order', args: { order: 7 }, result: '{"status": "locked"}' }, 'absent'],
      ['adk-session-9', { tool: 'lookup_order', args: { order: 8 }, result: '{"status": "shipped"}' }, 'absent'],
      ['adk-session-9', { tool: 'refund', error: 'ValueError: order 7 is locked' }, 'known'],
    ]);
  });

  it('should read the trace of Tempo v2 (trace.resourceSpans) and name the session by ADK session_id when no span has a conversation id', async () => {
    const trace = hexId('tempo-v2');
    const file = write('tempo-v2.json', JSON.stringify({ trace: { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'gcp.vertex.agent' }, spans: adkSpans(trace, false) }] }] }, status: 'complete' }));
    const read = await calls(file);
    expect(read.map((c) => `${c.session} ${c.event.tool}`)).toEqual(['adk-session-9 lookup_order', 'adk-session-9 lookup_order', 'adk-session-9 refund']);
  });

  it('should take the error of an attribute-less tool span from its exception event when the status has no message', async () => {
    const trace = hexId('bare');
    const span = { traceId: trace, spanId: hexId('s', 8), name: 'execute_tool fetch_page', startTimeUnixNano: at(0), status: { code: 2 }, events: [{ name: 'exception', attributes: [str('exception.type', 'TimeoutError'), str('exception.message', 'page took over 30 s')] }] };
    const ok = { traceId: trace, spanId: hexId('o', 8), name: 'execute_tool fetch_page', startTimeUnixNano: at(1), status: {} };
    const other = { traceId: trace, spanId: hexId('x', 8), name: 'execute_tool_summary', startTimeUnixNano: at(2), attributes: [] };
    const file = write('bare.jsonl', JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span, ok, other] }] }] }) + '\n');
    expect((await calls(file)).map((c) => [c.event, c.errorInfo])).toEqual([
      [{ tool: 'fetch_page', error: 'page took over 30 s' }, 'known'],
      [{ tool: 'fetch_page' }, 'absent'],
    ]);
  });
});
