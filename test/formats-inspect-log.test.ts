/**
 * The Inspect AI eval log reader (JSON form): detected by `eval` + `samples`, each sample and epoch a
 * session, assistant tool calls paired with tool messages by id, tool errors known failures, attachments
 * resolved, reasoning left out; malformed samples, messages and calls reported by file and line, the rest
 * still read; unknown fields, huge and deep values.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_NESTING } from '../src/formats/trace-record.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-inspect');

const log = (samples: unknown[], extra: Record<string, unknown> = {}) => ({ version: 2, status: 'success', eval: { task: 'ctf', task_id: 'k3x', model: 'openai/gpt-5', future: true }, samples, ...extra });
const assistant = (content: unknown, calls: unknown) => ({ role: 'assistant', content, tool_calls: calls, source: 'generate' });
const tool = (id: string, content: unknown, error: unknown = null) => ({ role: 'tool', tool_call_id: id, content, error });

describe('Inspect AI eval log format', () => {
  it('should read each sample and epoch as a session, pair results by id, know tool errors, resolve attachments and say the text once', async () => {
    const sample = (epoch: number) => ({
      id: 'web-1',
      epoch,
      input: 'Find the flag.',
      messages: [
        { role: 'system', content: 'You are a CTF player.' },
        { role: 'user', content: 'Find the flag.' },
        assistant([{ type: 'reasoning', reasoning: 'Two looks at once.' }, { type: 'text', text: 'Looking around.' }, { type: 'image', image: 'data:...' }], [
          { id: 'a', function: 'bash', arguments: { cmd: 'attachment://h1' }, type: 'function' },
          { id: 'b', function: 'python', arguments: '{"code": "print(1)"}', parse_error: null },
        ]),
        tool('b', [{ type: 'text', text: '1' }]),
        tool('a', '', { type: 'timeout', message: 'Command timed out before completing.' }),
        assistant('attachment://h2', [{ id: 'c', function: 'submit', arguments: { answer: 'flag{x}' } }]),
        { role: 'tool', tool_call_id: 'c', content: 'attachment://h3', tool_error: 'wrong answer' },
        assistant('Done.', []),
      ],
      attachments: { h1: 'cat /etc/passwd', h2: 'Submitting.', h3: 'Incorrect.' },
      scores: {},
    });
    const file = write('logs/run.json', JSON.stringify(log([sample(1), sample(2)]), null, 2));
    const one = (session: string) => [
      { kind: 'call', session, event: { tool: 'bash', args: { cmd: 'cat /etc/passwd' }, result: '', error: 'Command timed out before completing.', text: 'Looking around.', step: 0, round: 0 }, errorInfo: 'known', file, line: 1 },
      { kind: 'call', session, event: { tool: 'python', args: { code: 'print(1)' }, result: '1', step: 1, round: 0 }, errorInfo: 'absent', file, line: 1 },
      { kind: 'call', session, event: { tool: 'submit', args: { answer: 'flag{x}' }, result: 'Incorrect.', error: 'wrong answer', text: 'Submitting.', step: 2, round: 1 }, errorInfo: 'known', file, line: 1 },
      { kind: 'end', session, file },
    ];
    expect(await collect([file])).toEqual([...one('ctf/web-1#1'), ...one('ctf/web-1#2')]);
  });

  it('should report malformed samples, messages and calls by file and line, and read the rest', async () => {
    const file = write('broken.json', JSON.stringify(log([
      'not a sample',
      { id: 3, messages: 'nope' },
      { id: 4, epoch: 1, messages: [7, assistant('x', [{ id: 'k' }, null, { id: 'ok', function: 'ls', arguments: {} }]), assistant('y', { not: 'an array' }), { role: 'tool', content: 'no id' }, tool('nobody', 'n'), tool('ok', 'listed')] },
    ])));
    const items = await collect([file]);
    const s = '"ctf/4#1"';
    expect(items.filter((i) => i.kind === 'issue').map((i) => i.kind === 'issue' && [i.code, i.file, i.line, i.message])).toEqual([
      ['bad-record', file, 1, 'sample 0: expected an object with a "messages" array, received "not a sample" (string); skipped'],
      ['bad-record', file, 1, 'sample 1: expected an object with a "messages" array, received an object without one; skipped'],
      ['bad-record', file, 1, `sample ${s} message 0: expected an object, received 7 (number); skipped`],
      ['bad-record', file, 1, `sample ${s} message 1: tool call 0 has no "function" name (received undefined); skipped`],
      ['bad-record', file, 1, `sample ${s} message 1: tool call 1 has no "function" name (received null); skipped`],
      ['bad-record', file, 1, `sample ${s} message 2: "tool_calls" must be an array, received an object; skipped`],
      ['bad-record', file, 1, `sample ${s} message 3: tool message without a string "tool_call_id" (received undefined); skipped`],
      ['unpaired-result', file, 1, 'result for call id "nobody" has no call in session "ctf/4#1"; skipped'],
    ]);
    expect(items.filter((i) => i.kind === 'call').map((i) => i.kind === 'call' && [i.session, i.event, i.errorInfo])).toEqual([['ctf/4#1', { tool: 'ls', args: {}, result: 'listed', text: 'x', step: 0, round: 0 }, 'absent']]);
  });

  it('should not take samples without an eval spec for a log, unless forced; a log without samples has no calls', async () => {
    const file = write('plain.json', JSON.stringify({ samples: [] }));
    expect((await collect([file])).map((i) => i.kind === 'issue' && i.code)).toEqual(['unknown-format']);
    expect(await collect([file], { format: 'inspect' })).toEqual([{ kind: 'issue', code: 'bad-record', file, line: 1, message: 'expected an Inspect eval log (an object with an "eval" object and a "samples" array), received an object without them' }]);
    const empty = write('empty.json', JSON.stringify(log([])));
    expect(await collect([empty])).toEqual([]);
  });

  it('should know a log written without samples (its header alone, as --no-log-samples or an eval set writes it) for an Inspect log with no calls, said in one note, not an unknown format', async () => {
    const header = { version: 2, status: 'error', eval: { task: 'popularity', task_id: 'Qm4', model: 'mockllm/model', dataset: { name: 'popularity', samples: 100 } }, plan: { name: 'plan', steps: [] }, results: { total_samples: 0, completed_samples: 0 }, stats: { started_at: '2026-12-06T09:00:00+00:00' }, error: { message: 'model quota exceeded' } };
    const file = write('logs/2026-12-06T09-00-00+00-00_popularity_Qm4.json', JSON.stringify(header, null, 2));
    expect(await collect([file])).toEqual([
      { kind: 'note', file, line: 1, message: 'passed over: an Inspect AI eval log of task "popularity" (status "error") without samples (logged with --no-log-samples, or no sample was written), so without calls' },
    ]);
    // still no log: an eval spec without version and status, or a spec without its task
    const notLog = write('spec.json', JSON.stringify({ eval: { task: 'x' }, status: 'ok' }));
    expect((await collect([notLog])).map((i) => i.kind === 'issue' && i.code)).toEqual(['unknown-format']);
    const noTask = write('no-task.json', JSON.stringify({ ...header, eval: { model: 'm' } }));
    expect((await collect([noTask])).map((i) => i.kind === 'issue' && i.code)).toEqual(['unknown-format']);
  });

  it('should skip a file that only starts like a zip archive, gzipped or not, with one issue saying why (archives: formats-inspect-eval-archive)', async () => {
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]), Buffer.alloc(64, 0xff)]);
    const files = [write('logs/run.eval', zip), write('logs/run.eval.gz', gzipSync(zip))];
    const messages = ['a zip archive that cannot be read: no end of central directory record at the end of the file (a truncated archive, or not a zip archive); input skipped', 'a gzipped zip archive, which is not read in place: gunzip it, then scan the archive; input skipped'];
    const expected = files.map((file, i) => ({ kind: 'issue', code: 'read-error', file, line: 0, message: messages[i] }));
    expect(await collect(files)).toEqual(expected);
    expect(await collect(files, { format: 'inspect' })).toEqual(expected);
  });

  it('should read huge results, and skip a log nested too deep with one issue naming the file', async () => {
    const big = 'y'.repeat(2_000_000);
    const huge = write('huge.json', JSON.stringify(log([{ id: 1, messages: [assistant('', [{ id: 'a', function: 'cat', arguments: {} }]), tool('a', big)] }])));
    expect((await collect([huge])).map((i) => (i.kind === 'call' ? (i.event.result as string).length : i.kind))).toEqual([big.length, 'end']);
    let deep: unknown = 1;
    for (let i = 0; i < MAX_NESTING + 10; i++) deep = { d: deep };
    const tooDeep = write('deep.json', JSON.stringify(log([{ id: 1, messages: [assistant('', [{ id: 'a', function: 'f', arguments: deep }])] }])));
    expect((await collect([tooDeep])).map((i) => [i.kind, i.kind === 'issue' && i.code, i.kind === 'issue' && i.file])).toEqual([['issue', 'invalid-json', tooDeep]]);
  });
});
