/**
 * Inputs several read buffers long (src/formats/byte-source.ts reads FILE_READ_BYTES at a time) give, from
 * a path, exactly the items the same bytes give from a stream in one chunk: lines and JSON elements that
 * cross a read's end, multi-byte characters cut by one, gzip members whose header is cut by one, and
 * inputs read at the same time or left early.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FILE_READ_BYTES, inputBytes } from '../src/formats/byte-source.js';
import { readInputs } from '../src/formats/read-inputs.js';
import type { TraceItem } from '../src/formats/trace-record.js';
import { scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-file-chunks');

/** Events lines of many lengths, some with multi-byte characters, about `bytes` long in all. */
function eventLines(bytes: number, salt: string): string {
  let s = '';
  for (let i = 0; s.length < bytes; i++) {
    const pad = 'é€😀x'.repeat((i * 7919) % 900);
    s += `${JSON.stringify({ session: `${salt}${i % 5}`, tool: 'read', args: { path: `f${i % 13}.py`, pad }, result: `line ${i} ${pad}` })}\n`;
  }
  return s;
}

async function items(path: string, stdin?: Readable): Promise<TraceItem[]> {
  const out: TraceItem[] = [];
  for await (const item of readInputs([path], stdin === undefined ? {} : { stdin })) out.push(item);
  // the input's name differs (the path, or standard input); what was read does not
  return out.map((i) => ('file' in i ? { ...i, file: '' } : i)) as TraceItem[];
}

async function bytesOf(it: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of it) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

describe('files read a buffer at a time', () => {
  it('should give the items a stream of the same bytes gives: events lines over several reads', async () => {
    const text = eventLines(3.5 * FILE_READ_BYTES, 's');
    const path = write('big.jsonl', text);
    const fromFile = await items(path);
    expect(fromFile.filter((i) => i.kind === 'call').length).toBe(text.split('\n').length - 1);
    expect(fromFile).toEqual(await items('-', Readable.from([Buffer.from(text)])));
  });

  it('should give the items a stream gives: a JSON array document over several reads', async () => {
    const records = eventLines(2.5 * FILE_READ_BYTES, 'a').trim().split('\n');
    const text = `[\n${records.join(',\n')}\n]\n`;
    const path = write('big.json', text);
    const fromFile = await items(path);
    expect(fromFile.filter((i) => i.kind === 'call').length).toBe(records.length);
    expect(fromFile).toEqual(await items('-', Readable.from([Buffer.from(text)])));
  });

  it('should read gzip whose compressed bytes take several reads', async () => {
    // incompressible lines: the gzip file is longer than two read buffers
    let text = '';
    for (let i = 0; text.length < 3.5 * FILE_READ_BYTES; i++) text += `${JSON.stringify({ session: `g${i % 3}`, tool: 'ls', args: { r: randomBytes(300).toString('base64') } })}\n`;
    // several members, so that members end and headers start inside reads
    const third = Math.floor(text.length / 3);
    const zipped = Buffer.concat([gzipSync(text.slice(0, third)), gzipSync(text.slice(third, 2 * third)), gzipSync(text.slice(2 * third))]);
    expect(zipped.length).toBeGreaterThan(2 * FILE_READ_BYTES);
    const path = write('big.jsonl.gz', zipped);
    expect((await bytesOf(inputBytes(path))).equals(Buffer.from(text))).toBe(true);
    expect(await items(path)).toEqual(await items('-', Readable.from([zipped])));
  });

  it('should read a gzip member whose header is cut by the end of a read', async () => {
    const line = (i: number): string => `${JSON.stringify({ session: `h${i % 3}`, tool: 'ls', args: { r: randomBytes(200).toString('base64') } })}\n`;
    let one = '';
    for (let i = 0; one.length < 0.9 * FILE_READ_BYTES; i++) one += line(i);
    let two = '';
    // more than a read after the cut
    for (let i = 0; two.length < 1.6 * FILE_READ_BYTES; i++) two += line(i);
    // the first member padded with a file name (FNAME) to end 5 bytes before the second read does
    const plain = gzipSync(one);
    const name = 2 * FILE_READ_BYTES - 5 - plain.length - 1;
    expect(name).toBeGreaterThan(0);
    const header = Buffer.from(plain.subarray(0, 10));
    header[3] = (header[3] as number) | 8;
    const first = Buffer.concat([header, Buffer.alloc(name, 0x61), Buffer.from([0]), plain.subarray(10)]);
    expect(first.length).toBe(2 * FILE_READ_BYTES - 5);
    const zipped = Buffer.concat([first, gzipSync(two)]);
    const path = write('cut.jsonl.gz', zipped);
    expect((await bytesOf(inputBytes(path))).equals(Buffer.from(one + two))).toBe(true);
  });

  it('should keep inputs read at the same time apart, and one left early from the next', async () => {
    const a = write('a.jsonl', eventLines(2.2 * FILE_READ_BYTES, 'a'));
    const b = write('b.jsonl', eventLines(1.7 * FILE_READ_BYTES, 'b'));
    // interleaved reads, each chunk copied before the other input's next read
    const ia = inputBytes(a)[Symbol.asyncIterator]();
    const ib = inputBytes(b)[Symbol.asyncIterator]();
    const pa: Buffer[] = [];
    const pb: Buffer[] = [];
    let da = false;
    let db = false;
    while (!da || !db) {
      if (!da) {
        const r = await ia.next();
        if (r.done === true) da = true;
        else pa.push(Buffer.from(r.value));
      }
      if (!db) {
        const r = await ib.next();
        if (r.done === true) db = true;
        else pb.push(Buffer.from(r.value));
      }
    }
    expect(Buffer.concat(pa).equals(readFileSync(a))).toBe(true);
    expect(Buffer.concat(pb).equals(readFileSync(b))).toBe(true);
    // left after one chunk: its buffer goes back, and the next input reads whole
    for await (const c of inputBytes(a)) {
      expect(c.length).toBeGreaterThan(0);
      break;
    }
    expect((await bytesOf(inputBytes(b))).equals(readFileSync(b))).toBe(true);
  });

  it('should name a missing file as before', async () => {
    await expect(bytesOf(inputBytes(write('x', '') + '-missing'))).rejects.toThrow(/ENOENT/);
  });
});
