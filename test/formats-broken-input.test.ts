/**
 * Bad input never throws and never vanishes: every line or element skipped is an issue naming the file and
 * line (CRLF and a BOM are fine; invalid UTF-8, truncated lines, deep nesting, huge numbers, non-objects,
 * missing tools, wrong types, over-long lines and corrupt gzip are reported), and the rest is still read.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_NESTING, type TraceItem } from '../src/formats/trace-record.js';
import { collectAll, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-broken');

/** Each item as one short string: `call <tool>@<line>`, `issue <code>@<line>`, `end`. */
const brief = (items: TraceItem[]): string[] => items.map((i) => (i.kind === 'call' ? `call ${i.event.tool}@${i.line}` : i.kind === 'issue' ? `issue ${i.code}@${i.line}` : i.kind === 'input-end' ? 'input-end' : 'end'));

const ev = (tool: string, extra: object = {}): string => JSON.stringify({ session: 's', tool, ...extra });

describe('broken input', () => {
  it('should accept CRLF line endings and drop a BOM opening the file', async () => {
    const file = write('crlf.jsonl', '\uFEFF' + [ev('a'), ev('b'), ''].join('\r\n'));
    const items = await collectAll([file]);
    expect(brief(items)).toEqual(['call a@1', 'call b@2', 'input-end']);
  });

  it('should report a line of invalid UTF-8 by file and line and read the next', async () => {
    const bad = Buffer.concat([Buffer.from('{"session":"s","tool":"x'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}\n')]);
    const file = write('utf8.jsonl', Buffer.concat([Buffer.from(ev('a') + '\n'), bad, Buffer.from(ev('b') + '\n')]));
    const items = await collectAll([file]);
    expect(items[1]).toEqual({ kind: 'issue', code: 'invalid-utf8', file, line: 2, message: 'line is not valid UTF-8' });
    expect(brief(items)).toEqual(['call a@1', 'issue invalid-utf8@2', 'call b@3', 'input-end']);
  });

  it('should report truncated lines, including a truncated last line', async () => {
    const file = write('truncated.jsonl', [ev('a'), ev('b').slice(0, 20), ev('c'), ev('d').slice(0, 25)].join('\n'));
    const items = await collectAll([file]);
    expect(brief(items)).toEqual(['call a@1', 'issue invalid-json@2', 'call c@3', 'issue invalid-json@4', 'input-end']);
    expect((items[1] as { message: string }).message).toMatch(/^invalid JSON: /);
  });

  it('should report JSON nested 200,000 deep, closed or not, without overflowing', async () => {
    const deep = '['.repeat(200_000);
    const file = write('deep.jsonl', [ev('a'), deep, deep + ']'.repeat(200_000), ev('b', { args: JSON.parse('['.repeat(50) + ']'.repeat(50)) as unknown })].join('\n'));
    const items = await collectAll([file]);
    expect(brief(items)).toEqual(['call a@1', 'issue invalid-json@2', 'issue invalid-json@3', 'call b@4', 'input-end']);
    expect(items[2]).toMatchObject({ message: `JSON nests deeper than ${MAX_NESTING} levels` });
  });

  it('should report deep nesting inside a JSON array file too', async () => {
    const file = write('deep-array.json', `[\n${ev('a')},\n${'['.repeat(200_000)}${']'.repeat(200_000)},\n${ev('b')}\n]`);
    expect(brief(await collectAll([file]))).toEqual(['call a@2', 'issue invalid-json@3', 'call b@4', 'input-end']);
  });

  it('should keep huge numbers as numbers and report a step that is not finite', async () => {
    const file = write('numbers.jsonl', ['{"session":"s","tool":"a","args":{"id":123456789012345678901234567890}}', '{"session":"s","tool":"b","step":1e400}'].join('\n'));
    const items = await collectAll([file]);
    expect(items[0]).toMatchObject({ kind: 'call', event: { tool: 'a', args: { id: 1.2345678901234568e29 } } });
    expect(items[1]).toEqual({ kind: 'issue', code: 'bad-record', file, line: 2, message: '"step" must be a finite number, received Infinity (number); skipped' });
  });

  it('should report non-object lines, missing tools and wrong types, one issue per line', async () => {
    const lines = [ev('ok'), '[1,2]', '"text"', 'null', '{"session":"s"}', '{"session":"s","tool":""}', '{"session":{"id":1},"tool":"x"}', ev('x', { text: 5 }), ev('x', { round: 'one' }), ev('x', { step: '3' })];
    const file = write('types.jsonl', lines.join('\n') + '\n');
    const items = await collectAll([file]);
    expect(items.map((i) => (i.kind === 'issue' ? `${i.line} ${i.message}` : i.kind))).toEqual([
      'call',
      '2 expected an object with a "tool", received 1 (number); skipped',
      '2 expected an object with a "tool", received 2 (number); skipped',
      '3 expected an object with a "tool", received "text" (string); skipped',
      '4 expected an object with a "tool", received null; skipped',
      '5 "tool" must be a non-empty string, received undefined; skipped',
      '6 "tool" must be a non-empty string, received "" (string); skipped',
      '7 "session" must be a non-empty string or a finite number, received an object; skipped',
      '8 "text" must be a string, received 5 (number); skipped',
      '9 "round" must be a finite number, received "one" (string); skipped',
      '10 "step" must be a finite number, received "3" (string); skipped',
      'input-end',
    ]);
  });

  it('should skip a line longer than maxLineBytes without losing its neighbours', async () => {
    const long = ev('long', { args: 'x'.repeat(5000) });
    const file = write('long.jsonl', [ev('a'), long, ev('b'), long].join('\n'));
    const items = await collectAll([file], { maxLineBytes: 1000 });
    expect(brief(items)).toEqual(['call a@1', 'issue too-long@2', 'call b@3', 'issue too-long@4', 'input-end']);
    expect(items[1]).toMatchObject({ message: `line of ${long.length} bytes is longer than maxLineBytes (1000); skipped` });
  });

  it('should skip an element longer than maxLineBytes in a JSON array file', async () => {
    const file = write('long-array.json', `[\n${ev('a')},\n${ev('long', { args: 'y'.repeat(5000) })},\n${ev('b')}]`);
    expect(brief(await collectAll([file], { maxLineBytes: 1000 }))).toEqual(['call a@2', 'issue too-long@3', 'call b@4', 'input-end']);
  });

  it('should report a truncated JSON array and keep its complete elements', async () => {
    const file = write('cut-array.json', `[\n${ev('a')},\n${ev('b')},\n{"session":"s","to`);
    const items = await collectAll([file]);
    expect(brief(items)).toEqual(['call a@2', 'call b@3', 'issue invalid-json@4', 'input-end']);
    expect(items[2]).toMatchObject({ message: 'input ends before the array that starts at line 1 is closed; element 2 is incomplete' });
  });

  it('should report a corrupt gzip stream as a read error after the lines it gave', async () => {
    const zipped = gzipSync(Array.from({ length: 2000 }, (_, k) => ev(`t${k}`, { args: { k } })).join('\n') + '\n');
    const file = write('cut.jsonl.gz', zipped.subarray(0, Math.floor(zipped.length / 2)));
    const items = await collectAll([file]);
    const last = items.at(-2);
    expect(last).toMatchObject({ kind: 'issue', code: 'read-error', file });
    expect(items.at(-1)).toMatchObject({ kind: 'input-end' });
    const calls = items.filter((i) => i.kind === 'call');
    expect(calls.length).toBeGreaterThan(0);
    expect((last as { line: number }).line).toBe(calls.length + 1);
  });

  it('should account for every non-blank line: each is a call or an issue', async () => {
    const lines = [ev('a'), '', '{', ev('b'), '   ', '}', 'garbage', ev('c', { step: -1 }), '[]', ev('d')];
    const file = write('mixed.jsonl', lines.join('\n'));
    const items = await collectAll([file]);
    expect(brief(items)).toEqual(['call a@1', 'issue invalid-json@3', 'call b@4', 'issue invalid-json@6', 'issue invalid-json@7', 'call c@8', 'issue bad-record@9', 'call d@10', 'input-end']);
  });
});
