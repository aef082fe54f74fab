/**
 * Format and layout detection: each format recognised from its first record that tells, a forced format,
 * unknown formats skipped by name while other inputs carry on, folders walked in sorted order keeping only
 * trace files, standard input, missing paths, and option validation.
 */
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../src/formats/detect-format.js';
import { FILE_READ_BYTES, PEEK_BYTES } from '../src/formats/byte-source.js';
import { detectLayout } from '../src/formats/detect-layout.js';
import { FORMAT_NAMES, readInputs } from '../src/formats/read-inputs.js';
import { collect, collectAll, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-detect');
const KNOWN = 'loopwatch events, OpenAI chat, OpenAI Responses, Anthropic Messages, SWE-agent, Claude Code, Codex CLI, OpenTelemetry spans (OTLP/JSON), hook payloads, OpenHands events, Gemini CLI chats, ATIF trajectories (Harbor) or Inspect AI eval logs (JSON)';

const line = (v: unknown): string => JSON.stringify(v) + '\n';
const events = line({ session: 'e', tool: 'ls' });
const chat = line({ messages: [{ role: 'assistant', tool_calls: [{ id: '1', type: 'function', function: { name: 'ls', arguments: '{}' } }] }] });
const responses = line({ output: [{ type: 'function_call', call_id: '1', name: 'ls', arguments: '{}' }] });
const anthropic = line({ messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: '1', name: 'ls', input: {} }] }] });
const swe = JSON.stringify({ trajectory: [{ action: 'ls -a', observation: '.' }] }, null, 2);
const codex = line({ timestamp: '2026-01-05T10:00:00.000Z', type: 'response_item', payload: { type: 'function_call', name: 'ls', arguments: '{}', call_id: 'c' } });
const otel = line({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 's' }, spans: [{ traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } }, { key: 'gen_ai.tool.name', value: { stringValue: 'ls' } }] }] }] }] });
const hook = line({ session_id: 'h', transcript_path: '/t.jsonl', cwd: '/app', hook_event_name: 'PreToolUse', tool_name: 'ls', tool_input: {}, tool_use_id: 't' });
const openhands = line({ id: 7, timestamp: '2026-01-05T10:00:00', source: 'agent', message: 'Running command: ls', action: 'run', args: { command: 'ls', thought: '' } });
const claudeCode = line({ type: 'assistant', sessionId: 'cc', uuid: 'u1', parentUuid: null, message: { id: 'm', role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'ls', input: {} }] } });

describe('format detection', () => {
  it('should list the formats', () => {
    expect(FORMAT_NAMES).toEqual(['events', 'openai-chat', 'openai-responses', 'anthropic', 'swe-agent', 'claude-code', 'codex', 'otel', 'hooks', 'openhands', 'gemini-cli', 'atif', 'inspect']);
  });

  it('should recognise each format from its first record', () => {
    const first = (s: string): unknown => JSON.parse(s.split('\n')[0]!);
    expect(detectFormat(first(events), 'x.jsonl')).toEqual({ format: 'events', decisive: true });
    expect(detectFormat(first(chat), 'x.jsonl')).toEqual({ format: 'openai-chat', decisive: true });
    expect(detectFormat(first(responses), 'x.jsonl')).toEqual({ format: 'openai-responses', decisive: true });
    expect(detectFormat(first(anthropic), 'x.jsonl')).toEqual({ format: 'anthropic', decisive: true });
    expect(detectFormat(JSON.parse(swe), 'x.json')).toEqual({ format: 'swe-agent', decisive: true });
    expect(detectFormat({ anything: 1 }, 'run.traj')).toEqual({ format: 'swe-agent', decisive: true });
    expect(detectFormat([{ role: 'user', content: 'hi' }], 'x.jsonl')).toEqual({ format: 'openai-chat', decisive: false });
    expect(detectFormat({ system: 'be brief', messages: [{ role: 'user', content: 'hi' }] }, 'x.jsonl')).toEqual({ format: 'anthropic', decisive: false });
    expect(detectFormat({ foo: 1 }, 'x.jsonl')).toBeNull();
    expect(detectFormat(3, 'x.jsonl')).toBeNull();
  });

  it('should recognise a Claude Code transcript from any of its lines, and not its near misses', () => {
    const cc = { format: 'claude-code', decisive: true };
    expect(detectFormat(JSON.parse(claudeCode), 'x.jsonl')).toEqual(cc);
    expect(detectFormat({ type: 'summary', summary: 'Fix the bug', leafUuid: 'u9' }, 'x.jsonl')).toEqual(cc);
    expect(detectFormat({ type: 'file-history-snapshot', messageId: 'm', snapshot: {}, isSnapshotUpdate: false }, 'x.jsonl')).toEqual(cc);
    expect(detectFormat({ type: 'permission-mode', permissionMode: 'default', sessionId: 's' }, 'x.jsonl')).toEqual(cc);
    // near misses: no sessionId, no type, or an Anthropic conversation
    expect(detectFormat({ type: 'assistant', message: { role: 'assistant', content: [] } }, 'x.jsonl')).toBeNull();
    expect(detectFormat({ sessionId: 's', message: {} }, 'x.jsonl')).toBeNull();
    expect(detectFormat({ sessionId: 's', type: 'assistant', messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'ls', input: {} }] }] }, 'x.jsonl')).toEqual({ format: 'anthropic', decisive: true });
  });

  it('should recognise a Codex CLI rollout from any of its lines (2025 ones too), and not its near misses', () => {
    const cx = { format: 'codex', decisive: true };
    expect(detectFormat(JSON.parse(codex), 'x.jsonl')).toEqual(cx);
    for (const type of ['session_meta', 'event_msg', 'turn_context', 'compacted']) expect(detectFormat({ timestamp: 't', type, payload: {} }, 'x.jsonl')).toEqual(cx);
    expect(detectFormat({ id: 'c3c4', timestamp: '2025-08-18T01:16:13.522Z', instructions: null }, 'x.jsonl')).toEqual(cx);
    expect(detectFormat({ record_type: 'state' }, 'x.jsonl')).toEqual({ format: 'codex', decisive: false });
    // near misses: no payload object, an unknown line type, a bare item, `codex exec --json` events
    expect(detectFormat({ timestamp: 't', type: 'response_item', payload: 'x' }, 'x.jsonl')).toBeNull();
    expect(detectFormat({ timestamp: 't', type: 'thread.started', payload: {} }, 'x.jsonl')).toBeNull();
    expect(detectFormat({ type: 'function_call', name: 'ls', arguments: '{}', call_id: 'c' }, 'x.jsonl')).toBeNull();
    expect(detectFormat({ type: 'item.completed', item: { id: 'item_0', type: 'command_execution' } }, 'x.jsonl')).toBeNull();
    expect(detectFormat({ id: 'c3c4', timestamp: 't' }, 'x.jsonl')).toBeNull();
  });

  it('should recognise an OTLP/JSON trace export, and not other OTLP signals', () => {
    expect(detectFormat(JSON.parse(otel), 'x.jsonl')).toEqual({ format: 'otel', decisive: true });
    expect(detectFormat({ resourceSpans: [] }, 'x.json')).toEqual({ format: 'otel', decisive: true });
    expect(detectFormat({ resourceLogs: [{ scopeLogs: [] }] }, 'x.jsonl')).toBeNull();
    expect(detectFormat({ resourceMetrics: [] }, 'x.jsonl')).toBeNull();
    expect(detectFormat({ resourceSpans: {} }, 'x.jsonl')).toBeNull();
  });

  it('should recognise a hook payload of any hook event, and not its near misses', () => {
    const h = { format: 'hooks', decisive: true };
    expect(detectFormat(JSON.parse(hook), 'x.jsonl')).toEqual(h);
    expect(detectFormat({ session_id: 's', hook_event_name: 'UserPromptSubmit', prompt: 'hi' }, 'x.jsonl')).toEqual(h);
    expect(detectFormat({ session_id: 's', hook_event_name: 'BeforeTool', tool_name: 'read_file', tool_input: {} }, 'x.jsonl')).toEqual(h);
    // near misses: hook settings, a camelCase payload of another CLI, a hook's reply
    expect(detectFormat({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'log.sh' }] }] } }, 'x.json')).toBeNull();
    expect(detectFormat({ sessionId: 's', timestamp: 1, toolName: 'bash', toolArgs: {} }, 'x.jsonl')).toBeNull();
    expect(detectFormat({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }, 'x.jsonl')).toBeNull();
  });

  it('should recognise OpenHands events and evaluation output, and not their near misses', () => {
    const oh = { format: 'openhands', decisive: true };
    expect(detectFormat(JSON.parse(openhands), 'x.jsonl')).toEqual(oh);
    expect(detectFormat({ id: 0, source: 'environment', observation: 'agent_state_changed', content: '', extras: {} }, '0.json')).toEqual(oh);
    expect(detectFormat({ instance_id: 'django-1', history: [JSON.parse(openhands)] }, 'output.jsonl')).toEqual(oh);
    expect(detectFormat({ instance_id: 'django-1', history: [] }, 'output.jsonl')).toEqual({ format: 'openhands', decisive: false });
    // near misses: a SWE-agent step (no source), a history of chat messages, an OpenHands conversation's metadata
    expect(detectFormat({ action: 'ls -a', observation: '.', thought: 'look' }, 'x.jsonl')).toBeNull();
    expect(detectFormat({ instance_id: 'x', history: [{ role: 'user', content: 'hi' }] }, 'x.jsonl')).toBeNull();
    expect(detectFormat({ history: [JSON.parse(openhands)] }, 'x.jsonl')).toBeNull();
    expect(detectFormat({ conversation_id: 'abc', title: 'Fix it', selected_repository: null }, 'metadata.json')).toBeNull();
  });

  it('should choose JSON Lines unless the input opens with JSON spanning lines', () => {
    const bytes = (s: string) => Buffer.from(s);
    expect(detectLayout(bytes('{"a":1}\n{"a":2}\n'), true, 'x.jsonl')).toBe('lines');
    expect(detectLayout(bytes('{"a":\n1}\n'), true, 'x.json')).toBe('json');
    expect(detectLayout(bytes('[\n  {"a":1}\n]'), true, 'x.json')).toBe('json');
    expect(detectLayout(bytes('[{"a":1}]\n'), true, 'x.json')).toBe('lines');
    expect(detectLayout(bytes('{"broken\n{"a":2}\n'), true, 'x.jsonl')).toBe('lines');
    expect(detectLayout(bytes('[{"a":"long...'), false, 'x.json')).toBe('json');
    expect(detectLayout(bytes('{"a":"long...'), false, 'x.jsonl')).toBe('lines');
    expect(detectLayout(bytes('{"trajectory":[]}'), true, 'x.traj')).toBe('json');
    expect(detectLayout(bytes('\uFEFF\n\n{"a":1}\n'), true, 'x.jsonl')).toBe('lines');
  });

  it('should choose the layout from the first PEEK_BYTES whatever size the reads come in', async () => {
    // a broken 100 KB first line opening with '[': cut at 64 KiB it reads as the start of a JSON array
    const data = Buffer.from(`[${'x'.repeat(100_000)}\n${events}${events}`);
    const file = write('long-first-line.jsonl', data);
    const show = (items: readonly { kind: string }[]): string[] => items.map((i) => i.kind);
    const fromFile = await collectAll([file]); // read in FILE_READ_BYTES reads: the whole file at once
    const chunks = Array.from({ length: Math.ceil(data.length / 16_384) }, (_, k) => data.subarray(k * 16_384, (k + 1) * 16_384));
    const fromSmallReads = await collectAll(['-'], { stdin: Readable.from(chunks) });
    expect(data.length).toBeGreaterThan(PEEK_BYTES);
    expect(data.length).toBeLessThan(FILE_READ_BYTES);
    expect(show(fromFile)).toEqual(show(fromSmallReads));
    expect(show(fromFile)).not.toContain('call');
  });

  it('should walk a folder recursively in sorted order, reading only trace files, each in its own format', async () => {
    const root = join(dir, 'tree');
    write('tree/b/events.ndjson', events);
    write('tree/a/z.traj', swe);
    write('tree/a/chat.jsonl.gz', gzipSync(chat));
    write('tree/c.json', anthropic);
    write('tree/B.JSONL', responses);
    write('tree/d/0b6c.jsonl', claudeCode);
    write('tree/e/2026/01/05/rollout-2026-01-05T10-00-00-0199.jsonl', codex);
    write('tree/f/otel.json', JSON.stringify(JSON.parse(otel), null, 2));
    write('tree/g/hooks.jsonl', hook);
    write('tree/h/conv/events/0.json', openhands);
    write('tree/h/conv/event_cache/0-25.json', `[${openhands}]`);
    write('tree/h/conv/metadata.json', '{"conversation_id": "conv"}');
    write('tree/notes.txt', 'not a trace');
    write('tree/a/data.csv', 'a,b');
    const items = await collect([root]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    expect(items.filter((i) => i.kind === 'call').map((c) => `${c.file.slice(root.length + 1)} ${c.event.tool}`)).toEqual([
      'B.JSONL ls',
      'a/chat.jsonl.gz ls',
      'a/z.traj ls',
      'b/events.ndjson ls',
      'c.json ls',
      'd/0b6c.jsonl ls',
      'e/2026/01/05/rollout-2026-01-05T10-00-00-0199.jsonl ls',
      'f/otel.json ls',
      'g/hooks.jsonl ls',
      'h/conv/events run',
    ]);
  });

  it('should keep looking while conversations have no tool traffic, follow the first that tells, and report records in another format', async () => {
    const quiet = line({ id: 'q', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'text', text: 'hello' }] }] });
    const file = write('quiet-then-claude.jsonl', quiet + anthropic + chat);
    const items = await collect([file]);
    expect(items.map((i) => (i.kind === 'issue' ? `${i.code} ${i.line}: ${i.message}` : i.kind))).toEqual([
      'end',
      'call',
      'end',
      'bad-record 3: record is in the openai-chat format, but the input was found to be anthropic; skipped',
    ]);
  });

  it('should read every record in a forced format, reporting the ones that do not fit', async () => {
    const file = write('forced.jsonl', chat + events);
    const items = await collect([file], { format: 'events' });
    expect(items.map((i) => (i.kind === 'issue' ? `${i.code} ${i.line}: ${i.message}` : `${i.kind} ${'session' in i ? i.session : i.message}`))).toEqual([
      'bad-record 1: "tool" must be a non-empty string, received undefined; skipped',
      'call e',
    ]);
  });

  it('should skip an input of unknown format by name and carry on with the next', async () => {
    const unknown = write('unknown.jsonl', line({ hello: 'world', n: 1 }) + events);
    const scalar = write('scalar.json', '42\n');
    const good = write('good.jsonl', events);
    const items = await collect([unknown, scalar, good]);
    expect(items).toEqual([
      { kind: 'issue', code: 'unknown-format', file: unknown, line: 1, message: `the first record is an object with keys "hello", "n", not ${KNOWN}; input skipped` },
      { kind: 'issue', code: 'unknown-format', file: scalar, line: 1, message: `the first record is 42 (number), not ${KNOWN}; input skipped` },
      { kind: 'call', session: 'e', event: { tool: 'ls' }, errorInfo: 'absent', file: good, line: 1 },
    ]);
  });

  it('should give up on a file without any readable record after 100 skipped lines', async () => {
    const file = write('garbage.json', 'not json\n'.repeat(150));
    const items = await collect([file]);
    expect(items).toHaveLength(101);
    expect(items.at(-1)).toMatchObject({ code: 'unknown-format', file, line: 0 });
  });

  it('should read standard input as -, gzip or not', async () => {
    for (const data of [Buffer.from(events + events), gzipSync(events + events)]) {
      const stdin = Readable.from([data.subarray(0, 1), data.subarray(1)]);
      const items = await collectAll(['-'], { stdin });
      expect(items.map((i) => `${i.kind} ${i.file} ${i.kind === 'call' ? i.line : ''}`)).toEqual(['call <stdin> 1', 'call <stdin> 2', 'input-end <stdin> ']);
    }
  });

  it('should report a missing path at line 0 and read the others', async () => {
    const missing = join(dir, 'nope', 'missing.jsonl');
    const good = write('also-good.jsonl', events);
    const items = await collectAll([missing, good]);
    expect(items[0]).toEqual({ kind: 'issue', code: 'missing-input', file: missing, line: 0, message: 'cannot read the path: no such file or directory' });
    expect(items.slice(1).map((i) => i.kind)).toEqual(['call', 'input-end']);
  });

  it('should refuse invalid options at once, naming the option and the value', () => {
    expect(() => readInputs([], { format: 'csv' as never })).toThrow('options.format must be one of "events", "openai-chat", "openai-responses", "anthropic", "swe-agent", "claude-code", "codex", "otel", "hooks", "openhands", "gemini-cli", "atif", "inspect", received "csv" (string)');
    expect(() => readInputs([], { maxLineBytes: 0 })).toThrow('options.maxLineBytes must be an integer >= 1, received 0 (number)');
    expect(() => readInputs([], { maxLineBytes: 1.5 })).toThrow(TypeError);
    expect(() => readInputs([], { stdin: 'x' as never })).toThrow('options.stdin must be a readable stream');
    expect(() => readInputs([], { formats: 'events' } as never)).toThrow(/formats/);
  });
});
