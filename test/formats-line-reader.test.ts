/**
 * The line reader and the JSON splitter on their own: the same lines and pieces however the bytes are
 * chunked (down to one byte per chunk), bounded lines, BOM and CRLF handling, strings and escapes.
 */
import { describe, expect, it } from 'vitest';
import { JsonSplitter, type JsonPiece, splitJson } from '../src/formats/json-array-splitter.js';
import { readLines, type TextLine } from '../src/formats/line-reader.js';
import type { TraceIssue } from '../src/formats/trace-record.js';

async function* chunks(data: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

async function lines(data: Uint8Array, size: number, maxLineBytes = 1 << 20): Promise<(TextLine | TraceIssue)[]> {
  const out: (TextLine | TraceIssue)[] = [];
  for await (const l of readLines(chunks(data, size), { file: 'f', maxLineBytes })) out.push(l);
  return out;
}

async function pieces(data: Uint8Array, size: number, maxLineBytes = 1 << 20): Promise<(JsonPiece | TraceIssue)[]> {
  const out: (JsonPiece | TraceIssue)[] = [];
  for await (const p of splitJson(chunks(data, size), { file: 'f', maxLineBytes })) out.push(p);
  return out;
}

describe('line reader', () => {
  const data = Buffer.concat([Buffer.from('\uFEFFfirst\r\n\nthird ünïcødé\n'), Buffer.from([0x61, 0xc3, 0x28, 0x0a]), Buffer.from('\uFEFFfifth keeps its BOM\nlast without newline')]);

  it('should give the same lines for every chunk size', async () => {
    const expected = [
      { kind: 'line', text: 'first', line: 1 },
      { kind: 'line', text: 'third ünïcødé', line: 3 },
      { kind: 'issue', code: 'invalid-utf8', file: 'f', line: 4, message: 'line is not valid UTF-8' },
      { kind: 'line', text: '\uFEFFfifth keeps its BOM', line: 5 },
      { kind: 'line', text: 'last without newline', line: 6 },
    ];
    for (const size of [1, 2, 3, 7, 64, 1 << 16]) expect(await lines(data, size)).toEqual(expected);
  });

  it('should cap a line across chunks and carry on after it', async () => {
    const text = Buffer.from(`short\n${'x'.repeat(100)}\nok\n${'y'.repeat(11)}`);
    for (const size of [1, 5, 1000]) {
      expect(await lines(text, size, 10)).toEqual([
        { kind: 'line', text: 'short', line: 1 },
        { kind: 'issue', code: 'too-long', file: 'f', line: 2, message: 'line of 100 bytes is longer than maxLineBytes (10); skipped' },
        { kind: 'line', text: 'ok', line: 3 },
        { kind: 'issue', code: 'too-long', file: 'f', line: 4, message: 'line of 11 bytes is longer than maxLineBytes (10); skipped' },
      ]);
    }
  });

  it('should count blank lines without yielding them, for any chunk size', async () => {
    const blank = Buffer.from(`${'\n'.repeat(100_000)}  \t\r\n\n{"a": 1}\n${' \n'.repeat(1000)}last`);
    for (const size of [1, 5, 1 << 16]) {
      expect(await lines(blank, size)).toEqual([
        { kind: 'line', text: '{"a": 1}', line: 100_003 },
        { kind: 'line', text: 'last', line: 101_004 },
      ]);
    }
  });

  it('should end with a read-error issue when the input fails', async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('a\nb\npartial');
      throw new Error('disk on fire');
    }
    const out: (TextLine | TraceIssue)[] = [];
    for await (const l of readLines(failing(), { file: 'f', maxLineBytes: 100 })) out.push(l);
    expect(out.at(-1)).toEqual({ kind: 'issue', code: 'read-error', file: 'f', line: 3, message: 'input could not be read past this line: disk on fire' });
    expect(out).toHaveLength(3);
  });
});

describe('JSON array splitter', () => {
  const text = '\uFEFF[\n  {"a": "x,]}\\"[{"},\n  [1, [2, 3]],\n  "s\\\\",\n  42\n]\n{"top": [1]}\n7\n[]\n';

  it('should give the same pieces for every chunk size', async () => {
    const expected: JsonPiece[] = [
      { kind: 'element', text: '{"a": "x,]}\\"[{"}', line: 2, index: 0, arrayLine: 1 },
      { kind: 'element', text: '[1, [2, 3]]', line: 3, index: 1, arrayLine: 1 },
      { kind: 'element', text: '"s\\\\"', line: 4, index: 2, arrayLine: 1 },
      { kind: 'element', text: '42\n', line: 5, index: 3, arrayLine: 1 },
      { kind: 'array-end', arrayLine: 1, count: 4, closed: true },
      { kind: 'value', text: '{"top": [1]}', line: 7 },
      { kind: 'value', text: '7', line: 8 },
      { kind: 'array-end', arrayLine: 9, count: 0, closed: true },
    ];
    const data = Buffer.from(text);
    for (const size of [1, 2, 5, 13, 1 << 16]) expect(await pieces(data, size)).toEqual(expected);
    for (const p of expected) if (p.kind !== 'array-end') expect(() => JSON.parse(p.text) as unknown).not.toThrow();
  });

  it('should resynchronise after a string cut by a line break', () => {
    const s = new JsonSplitter('f', 1000);
    const out = [...s.push(Buffer.from('[\n"cut\n, {"b": "]"}]')), ...s.finish()];
    expect(out).toEqual([
      { kind: 'element', text: '"cut\n', line: 2, index: 0, arrayLine: 1 },
      { kind: 'element', text: '{"b": "]"}', line: 3, index: 1, arrayLine: 1 },
      { kind: 'array-end', arrayLine: 1, count: 2, closed: true },
    ]);
  });

  it('should report stray characters between values and skip the rest of their line', () => {
    const s = new JsonSplitter('f', 1000);
    const out = [...s.push(Buffer.from('{"a":1},\n} x\n{"b":2}')), ...s.finish()];
    expect(out).toEqual([
      { kind: 'value', text: '{"a":1}', line: 1 },
      { kind: 'issue', code: 'invalid-json', file: 'f', line: 1, message: "unexpected ',' between top-level values; rest of the line skipped" },
      { kind: 'issue', code: 'invalid-json', file: 'f', line: 2, message: "unexpected '}' between top-level values; rest of the line skipped" },
      { kind: 'value', text: '{"b":2}', line: 3 },
    ]);
  });

  it('should report an unclosed value at the end', () => {
    const s = new JsonSplitter('f', 1000);
    expect([...s.push(Buffer.from('\n{"a": [1,')), ...s.finish()]).toEqual([
      { kind: 'issue', code: 'invalid-json', file: 'f', line: 2, message: 'input ends before the value that starts at line 2 is closed' },
    ]);
  });

  it('should report an element of invalid UTF-8 and a missing element', () => {
    const s = new JsonSplitter('f', 1000);
    const bytes = Buffer.concat([Buffer.from('["ok", "'), Buffer.from([0xff]), Buffer.from('", , 3]')]);
    expect([...s.push(bytes), ...s.finish()]).toEqual([
      { kind: 'element', text: '"ok"', line: 1, index: 0, arrayLine: 1 },
      { kind: 'issue', code: 'invalid-utf8', file: 'f', line: 1, message: 'element 1 of the array at line 1 is not valid UTF-8' },
      { kind: 'issue', code: 'invalid-json', file: 'f', line: 1, message: "element 2 of the array at line 1 is missing (unexpected ',')" },
      { kind: 'element', text: '3', line: 1, index: 3, arrayLine: 1 },
      { kind: 'array-end', arrayLine: 1, count: 4, closed: true },
    ]);
  });
});
