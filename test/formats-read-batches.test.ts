/**
 * Reading in batches: readInputBatches gives the very items readInputs gives, in the same order, in
 * non-empty batches of at most LINES_PER_BATCH lines, whatever the chunks the bytes arrive in; issues
 * and input ends keep their places.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LINES_PER_BATCH } from '../src/formats/line-reader.js';
import { readInputBatches, readInputs } from '../src/formats/read-inputs.js';
import type { TraceItem } from '../src/formats/trace-record.js';
import { scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-read-batches');

const lines = (n: number): string =>
  Array.from({ length: n }, (_, i) => (i % 37 === 5 ? '{"broken\n' : i % 53 === 7 ? '\n' : `${JSON.stringify({ session: `s${i % 3}`, tool: 'ls', args: { i } })}\n`)).join('');

async function batchesOf(paths: string[], options = {}): Promise<TraceItem[][]> {
  const out: TraceItem[][] = [];
  for await (const b of readInputBatches(paths, options)) out.push(b);
  return out;
}

async function itemsOf(paths: string[], options = {}): Promise<TraceItem[]> {
  const out: TraceItem[] = [];
  for await (const item of readInputs(paths, options)) out.push(item);
  return out;
}

describe('reading in batches', () => {
  it('should give the items readInputs gives, in non-empty batches of at most LINES_PER_BATCH lines', async () => {
    const a = write('a.jsonl', lines(500));
    const b = write('b.jsonl', lines(3));
    const batches = await batchesOf([a, b]);
    expect(batches.flat()).toEqual(await itemsOf([a, b]));
    expect(batches.every((x) => x.length > 0 && x.length <= LINES_PER_BATCH + 1)).toBe(true);
    expect(batches.length).toBeGreaterThan(500 / LINES_PER_BATCH);
    expect(batches.flat().filter((i) => i.kind === 'issue')).toHaveLength(Array.from({ length: 500 }, (_, i) => i).filter((i) => i % 37 === 5).length);
    expect(batches.flat().filter((i) => i.kind === 'input-end').map((i) => i.file)).toEqual([a, b]);
  });

  it('should give the same items whatever the chunks the bytes arrive in', async () => {
    const data = Buffer.from(lines(300));
    const one = await batchesOf(['-'], { stdin: Readable.from([data]) });
    const small = await batchesOf(['-'], { stdin: Readable.from(Array.from({ length: Math.ceil(data.length / 7) }, (_, k) => data.subarray(k * 7, (k + 1) * 7))) });
    expect(small.flat()).toEqual(one.flat());
    expect(small.every((x) => x.length > 0)).toBe(true);
  });
});
