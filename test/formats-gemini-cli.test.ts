/**
 * The Gemini CLI reader: chats as one JSON document (what the devset's chats are), chats as JSON Lines
 * (newer CLIs: each message appended again as it changes, `$set` and `$rewindTo` lines) and `/chat save`
 * checkpoints (Gemini API contents). Each tool call is a call with its outcome from its status and its
 * functionResponse; a message's text goes to its first call. Before this reader, a chat was read as an
 * OpenAI chat without any call, and nothing said so.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { detectFormat } from '../src/formats/detect-format.js';
import type { TraceCall } from '../src/formats/trace-record.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { dir, write } = scratchDir('formats-gemini-cli');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (lines: readonly unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const row = (c: TraceCall) => [c.session, c.event.tool, c.event.args, c.event.result, c.errorInfo, c.event.text, c.event.round];

// the shapes of the devset's chats (fabien-lessirard dashboard-mictlan, LAF-US idaho-vault)
const response = (id: string, name: string, r: object) => [{ functionResponse: { id, name, response: r } }];
const toolCall = (id: string, name: string, args: object, status: string, r: object | null) => ({ id, name, args, result: r === null ? undefined : response(id, name, r), status, timestamp: 't', resultDisplay: 'shown to the user', displayName: name, description: '', renderOutputAsMarkdown: true });
const gemini = (id: string, content: string, toolCalls?: object[]) => ({ id, timestamp: 't', type: 'gemini', content, thoughts: [{ subject: 'Plan', description: 'I will look first.', timestamp: 't' }], tokens: { input: 1, output: 1, cached: 0, total: 2 }, model: 'gemini-3-pro-preview', ...(toolCalls ? { toolCalls } : {}) });
const user = (id: string, text: string) => ({ id, timestamp: 't', type: 'user', content: [{ text }] });
const chat = (sessionId: string, messages: object[], extra: object = {}) => ({ sessionId, projectHash: 'ab'.repeat(32), startTime: 't', lastUpdated: 't', messages, ...extra });

describe('Gemini CLI format', () => {
  it('should read a chat document: each tool call with its status and response, the text once, thoughts left out', async () => {
    const file = write('chats/session-2026-02-23T08-58-c9da8256.json', JSON.stringify(chat('c9da8256-6f4c', [
      user('u1', 'Fix the todo list.'),
      gemini('g1', 'I will read the list and the prompt.', [
        toolCall('read_file_1_0', 'read_file', { file_path: 'todo.txt' }, 'success', { output: '- [ ] remplir produits' }),
        toolCall('read_file_1_1', 'read_file', { file_path: 'prompt.txt' }, 'success', { output: '' }),
      ]),
      { id: 'i1', timestamp: 't', type: 'info', content: 'Request cancelled.' },
      gemini('g2', '', [toolCall('replace_2_0', 'replace', { old_string: 'a', new_string: 'b' }, 'cancelled', { error: '[Operation Cancelled] Reason: User denied execution.' })]),
      gemini('g3', 'Retrying with write_file.', [toolCall('write_file_3_0', 'write_file', { file_path: 'todo.txt' }, 'error', { error: 'Tool "write_file" not found in registry.' })]),
      gemini('g4', 'Done.'),
    ], { summary: 'Todo list' }), null, 2));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    expect(items.filter((i): i is TraceCall => i.kind === 'call').map(row)).toEqual([
      ['c9da8256-6f4c', 'read_file', { file_path: 'todo.txt' }, '- [ ] remplir produits', 'absent', 'I will read the list and the prompt.', 0],
      ['c9da8256-6f4c', 'read_file', { file_path: 'prompt.txt' }, '', 'absent', undefined, 0],
      ['c9da8256-6f4c', 'replace', { old_string: 'a', new_string: 'b' }, '[Operation Cancelled] Reason: User denied execution.', 'known', undefined, 1],
      ['c9da8256-6f4c', 'write_file', { file_path: 'todo.txt' }, 'Tool "write_file" not found in registry.', 'known', 'Retrying with write_file.', 2],
    ]);
    expect(items.at(-1)).toEqual({ kind: 'end', session: 'c9da8256-6f4c', file });
  });

  it('should read a shell command\'s exit code as its failure, and leave out the process ids that differ between identical runs', async () => {
    const shell = (n: number, output: string) => toolCall(`run_shell_command_${n}_0`, 'run_shell_command', { command: 'git add src/prompts/service' }, 'success', { output });
    const file = write('chats/session-shell.json', JSON.stringify(chat('shell-1', [
      gemini('g1', '', [shell(1, "Output: fatal: pathspec 'src/prompts/service' did not match any files\nExit Code: 1\nProcess Group PGID: 21960")]),
      gemini('g2', '', [shell(2, "Output: fatal: pathspec 'src/prompts/service' did not match any files\nExit Code: 1\nProcess Group PGID: 22108")]),
      gemini('g3', '', [shell(3, 'Command: ls -F\nDirectory: (root)\nOutput: a.txt\nError: (none)\nExit Code: 0\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 20404')]),
      gemini('g4', '', [shell(4, 'Output: (empty)\nProcess Group PGID: 23244')]),
    ])));
    const calls = (await collect([file])).filter((i): i is TraceCall => i.kind === 'call');
    expect(calls.map((c) => [c.event.result, c.errorInfo, c.event.error])).toEqual([
      ["Output: fatal: pathspec 'src/prompts/service' did not match any files", 'known', "Output: fatal: pathspec 'src/prompts/service' did not match any files"],
      ["Output: fatal: pathspec 'src/prompts/service' did not match any files", 'known', "Output: fatal: pathspec 'src/prompts/service' did not match any files"],
      ['Command: ls -F\nDirectory: (root)\nOutput: a.txt\nError: (none)', 'absent', undefined],
      ['Output: (empty)', 'absent', undefined],
    ]);
  });

  it('should name a subagent chat by its own id and take a result beside an injected text part', async () => {
    const steered = [{ text: 'User steering update: ...' }, ...response('xb7gtb#0-0', 'grep_search', { output: 'No matches found' })];
    const file = write('chats/b1f31681/xb7gtb.json', JSON.stringify(chat('xb7gtb', [user('u', 'Find Serena.'), gemini('g', '', [{ ...toolCall('xb7gtb#0-0', 'grep_search', { pattern: 'Serena' }, 'success', null), result: steered }])], { kind: 'subagent', directories: ['C:\\vault'] })));
    const calls = (await collect([file])).filter((i): i is TraceCall => i.kind === 'call');
    expect(calls.map(row)).toEqual([['xb7gtb', 'grep_search', { pattern: 'Serena' }, 'No matches found', 'absent', undefined, 0]]);
  });

  it('should read a JSON Lines chat once: a message appended again as it changes, $set copies and rewinds', async () => {
    const running = gemini('g1', 'Running the checks.', [toolCall('run_1_0', 'run_shell_command', { command: 'npm test' }, 'executing', null), toolCall('run_1_1', 'run_shell_command', { command: 'npm run lint' }, 'executing', null)]);
    const done = gemini('g1', 'Running the checks.', [toolCall('run_1_0', 'run_shell_command', { command: 'npm test' }, 'success', { output: 'Exit Code: 1' }), toolCall('run_1_1', 'run_shell_command', { command: 'npm run lint' }, 'success', { output: 'clean' })]);
    const file = write('chats/session-2026-05-01T10-00-5f04b52e.jsonl', jsonl([
      { sessionId: '5f04b52e-6b92', projectHash: 'ab'.repeat(32), startTime: 't', lastUpdated: 't', kind: 'main' },
      user('u1', 'Run the checks.'),
      { $set: { lastUpdated: 't2' } },
      gemini('g1', 'Running the checks.'),
      running,
      done,
      { $set: { messages: [user('u1', 'Run the checks.'), done] } },
      { $rewindTo: 'g1' },
      gemini('g2', '', [toolCall('read_2_0', 'read_file', { file_path: 'package.json' }, 'success', { output: '{}' })]),
    ]));
    const items = await collect([file]);
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    expect(items.filter((i): i is TraceCall => i.kind === 'call').map(row)).toEqual([
      ['5f04b52e-6b92', 'run_shell_command', { command: 'npm test' }, 'Exit Code: 1', 'absent', 'Running the checks.', 0],
      ['5f04b52e-6b92', 'run_shell_command', { command: 'npm run lint' }, 'clean', 'absent', undefined, 0],
      ['5f04b52e-6b92', 'read_file', { file_path: 'package.json' }, '{}', 'absent', undefined, 1],
    ]);
  });

  it('should read a checkpoint, with call ids or paired by name, as a bare array or under history', async () => {
    const contents = [
      { role: 'user', parts: [{ text: 'Fix the build.' }] },
      { role: 'model', parts: [{ text: 'Checking', thought: true }, { text: 'Building first.' }, { functionCall: { id: 'c1', name: 'run_shell_command', args: { command: 'make' } } }, { functionCall: { id: 'c2', name: 'read_file', args: { path: 'Makefile' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'c2', name: 'read_file', response: { output: 'all: build' } } }, { functionResponse: { id: 'c1', name: 'run_shell_command', response: { error: 'make: *** [build] Error 2' } } }] },
      { role: 'model', parts: [{ functionCall: { name: 'list_directory', args: { path: '.' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'list_directory', response: { output: 'Makefile\nsrc/' } } }] },
    ];
    const bare = write('checkpoint-build.json', JSON.stringify(contents));
    const wrapped = write('checkpoint-build-2.json', JSON.stringify({ history: contents, authType: 'oauth-personal' }));
    for (const file of [bare, wrapped]) {
      const items = await collect([file]);
      expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
      expect(items.filter((i): i is TraceCall => i.kind === 'call').map((c) => row(c).slice(1))).toEqual([
        ['run_shell_command', { command: 'make' }, 'make: *** [build] Error 2', 'known', 'Building first.', 0],
        ['read_file', { path: 'Makefile' }, 'all: build', 'absent', undefined, 0],
        ['list_directory', { path: '.' }, 'Makefile\nsrc/', 'absent', undefined, 1],
      ]);
    }
  });

  it('should detect each shape as Gemini CLI (a chat document used to pass for an OpenAI chat)', () => {
    const g = { format: 'gemini-cli', decisive: true };
    expect(detectFormat(chat('s', [user('u', 'hi')]), 'session.json')).toEqual(g);
    expect(detectFormat({ sessionId: 's', projectHash: 'h', startTime: 't', lastUpdated: 't' }, 'session.jsonl')).toEqual(g);
    expect(detectFormat(gemini('g', 'hi'), 'session.jsonl')).toEqual(g);
    expect(detectFormat([{ role: 'user', parts: [{ text: 'hi' }] }, { role: 'model', parts: [{ text: 'hello' }] }], 'checkpoint-a.json')).toEqual(g);
    expect(detectFormat({ history: [{ role: 'model', parts: [{ functionCall: { name: 'ls', args: {} } }] }] }, 'checkpoint-b.json')).toEqual(g);
    expect(detectFormat({ messages: [{ id: 'u', type: 'user', content: 'hi' }, gemini('g', 'hello')] }, 'export.json')).toEqual(g);
  });

  it('should pass over the prompt log beside the chats (logs.json) without an issue', async () => {
    const file = write('logs.json', JSON.stringify([0, 1].map((n) => ({ sessionId: 'c9da8256-6f4c', messageId: n, type: 'user', message: `prompt ${n}`, timestamp: 't' }))));
    expect(await collect([file])).toEqual([]);
  });

  it('should say so when a file read by a guess gives no call, rather than let it vanish', async () => {
    const file = write('notes.json', JSON.stringify({ messages: [{ kind: 'note', type: 'memo', content: 'remember the milk' }] }));
    const items = (await collect([file])).filter((i) => i.kind !== 'end');
    expect(items).toEqual([{ kind: 'issue', code: 'unknown-format', file, line: 0, message: 'no record carried a mark of a known format (a tool call, a result, a line type) and reading it as OpenAI chat found no call; input skipped' }]);
  });
});
