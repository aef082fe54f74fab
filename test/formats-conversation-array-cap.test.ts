/**
 * A bare conversation (a top-level JSON array of messages, read element by element) is held until its
 * array ends, so its text is capped as a document read whole is: past `maxLineBytes` of elements it is a
 * `too-long` issue and its parts are no longer parsed nor held. Before, a 340 MB array of one repeated
 * message (5 MB gzipped) held 3.1 GB; at 64 MiB it is now skipped, named, and memory stays flat.
 */
import { describe, expect, it } from 'vitest';
import { type RecordUnit, readRecords } from '../src/formats/read-records.js';
import type { TraceIssue } from '../src/formats/trace-record.js';

const MESSAGE = '{"role":"assistant","content":[{"type":"tool_use","id":"x","name":"t","input":{}}]}';

async function* bytesOf(text: string): AsyncGenerator<Uint8Array> {
  const b = Buffer.from(text);
  for (let i = 0; i < b.length; i += 4096) yield b.subarray(i, i + 4096);
}

async function records(text: string, maxLineBytes: number): Promise<(RecordUnit | TraceIssue)[]> {
  const out: (RecordUnit | TraceIssue)[] = [];
  for await (const r of readRecords(bytesOf(text), { file: 'chat.json', maxLineBytes, layout: 'json' })) out.push(r);
  return out;
}

describe('a bare conversation array over the limit', () => {
  it('should be one too-long issue, holding none of its parts', async () => {
    const text = `[${Array.from({ length: 1000 }, () => MESSAGE).join(',')}]`;
    const got = await records(text, 10_000);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ code: 'too-long', file: 'chat.json', line: 1 });
    expect((got[0] as TraceIssue).message).toContain('conversation of more than 10000 bytes');
  });

  it('should be read whole under the limit, and a later array read as usual after one over it', async () => {
    const small = `[${Array.from({ length: 10 }, () => MESSAGE).join(',')}]`;
    const under = await records(small, 10_000);
    expect(under).toHaveLength(1);
    expect((under[0] as RecordUnit).value).toHaveLength(10);
    const big = `[${Array.from({ length: 1000 }, () => MESSAGE).join(',')}]`;
    const both = await records(`${big}\n${small}`, 10_000);
    expect(both.map((r) => ('code' in r ? r.code : (r.value as unknown[]).length))).toEqual(['too-long', 10]);
  });
});
