/**
 * The OpenTelemetry GenAI reader: execute_tool spans of OTLP/JSON exports (a document, or one export per
 * line) as calls ordered by start time within their session, the session from gen_ai.conversation.id
 * (on the span or any span of its trace) or the trace id, ids in hex or base64, attribute values of every
 * AnyValue kind, status and error.type as known failures, calls without recorded arguments, bad spans
 * reported by line, and at most MAX_HELD_SPANS calls held.
 */
import { describe, expect, it } from 'vitest';
import { MAX_HELD_SPANS } from '../src/formats/otel-genai.js';
import { anyValue, otlpId } from '../src/formats/otlp-json.js';
import { hexId, otelExportLines } from './helpers/format-fixtures.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-otel');
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const str = (key: string, v: string) => ({ key, value: { stringValue: v } });
const tool = (name: string, extra: object[] = []) => [str('gen_ai.operation.name', 'execute_tool'), str('gen_ai.tool.name', name), ...extra];
const exportOf = (spans: unknown[]) => ({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 's' }, spans }] }] });
const base64 = (hex: string): string => Buffer.from(hex, 'hex').toString('base64');

describe('OpenTelemetry GenAI format', () => {
  it('should read the collector dump: tool spans in start order per session, named by the conversation of their trace', async () => {
    const call = (i: number) => ({ tool: 'lookup_order', args: { order: 1000 + i }, result: `order ${1000 + i}: shipped` });
    const lines = otelExportLines([{ conversation: 'conv-a', call, failing: false }, { conversation: 'conv-b', call: () => ({ tool: 'refund', args: { order: 7 }, result: 'refund failed: locked' }), failing: true }]);
    const file = write('dump.jsonl', jsonl(lines));
    const calls = (await collect([file])).filter((i) => i.kind === 'call');
    expect(calls.filter((c) => c.session === 'conv-a').map((c) => (c.event.args as { order: number }).order)).toEqual([1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007]);
    expect(calls.find((c) => c.session === 'conv-a')).toEqual({ kind: 'call', session: 'conv-a', event: { tool: 'lookup_order', args: { order: 1000 }, result: 'order 1000: shipped' }, errorInfo: 'absent', file, line: 1 });
    expect(calls.filter((c) => c.session === 'conv-b').every((c) => c.errorInfo === 'known' && c.event.error === 'refund failed: locked')).toBe(true);
    expect(calls).toHaveLength(16);
  });

  it('should read a pretty-printed document with base64 ids, every AnyValue kind, and error.type or an error status as a failure', async () => {
    const trace = hexId('trace-one');
    const span = (id: string, start: number, attributes: object[], status?: object) => ({ traceId: base64(trace), spanId: base64(hexId(id, 8)), name: id, startTimeUnixNano: start, attributes, ...(status ? { status } : {}) });
    const args = { key: 'gen_ai.tool.call.arguments', value: { kvlistValue: { values: [{ key: 'path', value: { stringValue: 'a.py' } }, { key: 'lines', value: { arrayValue: { values: [{ intValue: '1' }, { intValue: 20 }] } } }, { key: 'all', value: { boolValue: false } }, { key: 'ratio', value: { doubleValue: 0.5 } }] } } };
    const file = write('doc.json', JSON.stringify(exportOf([
      span('third', 3000, tool('read', [args]), { code: 'STATUS_CODE_ERROR', message: 'EACCES' }),
      span('first', 1000, tool('search', [str('gen_ai.tool.call.arguments', '{"q": "x"}'), str('error.type', 'timeout')])),
      span('second', 2000, tool('search', [str('gen_ai.tool.call.arguments', 'not json')]), { code: 1 }),
    ]), null, 2));
    expect(await collect([file])).toEqual([
      { kind: 'call', session: trace, event: { tool: 'search', args: { q: 'x' }, error: 'timeout' }, errorInfo: 'known', file, line: 1 },
      { kind: 'call', session: trace, event: { tool: 'search', args: 'not json' }, errorInfo: 'absent', file, line: 1 },
      { kind: 'call', session: trace, event: { tool: 'read', args: { path: 'a.py', lines: [1, 20], all: false, ratio: 0.5 }, error: 'EACCES' }, errorInfo: 'known', file, line: 1 },
    ]);
  });

  it('should give a call without recorded arguments no args, and join hex and base64 ids of one trace', async () => {
    const trace = hexId('trace-two');
    const file = write('no-args.jsonl', jsonl([
      exportOf([{ traceId: trace, spanId: hexId('a', 8), startTimeUnixNano: '1', attributes: tool('ping') }]),
      exportOf([{ traceId: base64(trace), spanId: base64(hexId('b', 8)), startTimeUnixNano: '2', attributes: [str('gen_ai.operation.name', 'chat'), { key: 'gen_ai.conversation.id', value: { intValue: '42' } }] }]),
    ]));
    expect((await collect([file])).map((i) => (i.kind === 'call' ? [i.session, i.event] : i.kind))).toEqual([['42', { tool: 'ping' }]]);
  });

  it('should report bad exports and spans by line and read the rest', async () => {
    const good = { traceId: hexId('t'), spanId: hexId('s', 8), startTimeUnixNano: '5', attributes: tool('ok') };
    const file = write('bad.jsonl', jsonl([
      { resourceLogs: [] },
      { resourceSpans: [{ resource: {} }] },
      exportOf([7, { ...good, traceId: 'xyz' }, { ...good, traceId: '0'.repeat(32) }, { ...good, attributes: tool('') }, good]),
    ]));
    const items = await collect([file], { format: 'otel' });
    const at = 'resourceSpans[0].scopeSpans[0].spans';
    expect(items.map((i) => (i.kind === 'issue' ? `${i.code} ${i.line}: ${i.message}` : i.kind === 'call' ? `call ${i.event.tool}` : i.kind))).toEqual([
      'bad-record 1: expected an OTLP/JSON trace export (an object with a "resourceSpans" or "batches" array), received an object without one; skipped',
      'bad-record 2: resourceSpans[0] has no "scopeSpans" array; skipped',
      `bad-record 3: ${at}[0]: expected a span object, received 7 (number); skipped`,
      `bad-record 3: ${at}[1]: "traceId" must be 16 bytes in hex or base64, received "xyz" (string); skipped`,
      `bad-record 3: ${at}[2]: "traceId" must be 16 bytes in hex or base64, received "${'0'.repeat(32)}" (string); skipped`,
      `bad-record 3: ${at}[3]: execute_tool span without a "gen_ai.tool.name" (received "" (string)); skipped`,
      'call ok',
    ]);
  });

  it(`should hold at most ${MAX_HELD_SPANS} calls, releasing the earliest-starting half past that`, async () => {
    const trace = hexId('busy');
    const span = (start: number) => ({ traceId: trace, spanId: hexId(`s${start}`, 8), startTimeUnixNano: String(start), attributes: tool(`t${start}`) });
    const first = Array.from({ length: MAX_HELD_SPANS + 1 }, (_, i) => span(2 * MAX_HELD_SPANS - i));
    const file = write('busy.jsonl', jsonl([exportOf(first), exportOf([span(2), span(1)])]));
    const starts = (await collect([file])).map((i) => (i.kind === 'call' ? Number(i.event.tool.slice(1)) : -1));
    const half = MAX_HELD_SPANS / 2 + 1;
    expect(starts).toHaveLength(MAX_HELD_SPANS + 3);
    expect(starts.slice(0, half)).toEqual(Array.from({ length: half }, (_, i) => MAX_HELD_SPANS + i));
    expect(starts.slice(half, half + 3)).toEqual([1, 2, MAX_HELD_SPANS + half]);
  });

  it('should read ids and values as OTLP/JSON and protobuf JSON write them', () => {
    const hex = '5b8efff798038103d269b633813fc60c';
    expect(otlpId(hex.toUpperCase(), 16)).toBe(hex);
    expect(otlpId(base64(hex), 16)).toBe(hex);
    expect(otlpId(base64(hex).slice(0, 12), 8)).toBeNull();
    expect(otlpId('eee19b7ec3c1b174', 8)).toBe('eee19b7ec3c1b174');
    expect(anyValue({ intValue: '9007199254740993' })).toBe('9007199254740993');
    expect(anyValue({ bytesValue: 'AAE=' })).toBe('AAE=');
    expect(anyValue({})).toBeUndefined();
  });
});
