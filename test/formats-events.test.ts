/**
 * The loopwatch events reader: calls come out line by line with sessions interleaved, each session ends
 * when the input ends, `error` decides the error knowledge, and a real trace file reads without an issue.
 */
import { existsSync, createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { TraceItem } from '../src/formats/trace-record.js';
import { collect, collectAll, scratchDir } from './helpers/trace-files.js';

const { write } = scratchDir('formats-events');

const jsonl = (records: object[]): string => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('events format', () => {
  const records = [
    { session: 'a', step: 0, tool: 'ls', args: { command: 'ls' }, result: 'x.py' },
    { session: 'b', step: 0, tool: 'cat', args: { command: 'cat y' }, result: '', error: 'No such file' },
    { session: 'a', step: 1, tool: 'open', args: { command: 'open x.py' }, result: '1: x', text: 'Let me look.' },
    { session: 'b', tool: 'cat', args: { command: 'cat z' }, error: null },
  ];

  it('should emit every call in line order, interleaved, and end its sessions with the file (one input-end, nothing kept per session)', async () => {
    const file = write('events.jsonl', jsonl(records));
    const items = await collectAll([file]);
    expect(items).toEqual([
      { kind: 'call', session: 'a', event: { tool: 'ls', args: { command: 'ls' }, result: 'x.py', step: 0 }, errorInfo: 'absent', file, line: 1 },
      { kind: 'call', session: 'b', event: { tool: 'cat', args: { command: 'cat y' }, result: '', error: 'No such file', step: 0 }, errorInfo: 'known', file, line: 2 },
      { kind: 'call', session: 'a', event: { tool: 'open', args: { command: 'open x.py' }, result: '1: x', text: 'Let me look.', step: 1 }, errorInfo: 'absent', file, line: 3 },
      { kind: 'call', session: 'b', event: { tool: 'cat', args: { command: 'cat z' } }, errorInfo: 'absent', file, line: 4 },
      { kind: 'input-end', file },
    ]);
  });

  it('should leave the step of a call without one unset (the scan numbers calls by their position in the session)', async () => {
    const file = write('nostep.jsonl', jsonl([{ session: 's', tool: 'a' }, { session: 't', tool: 'b' }, { session: 's', tool: 'c', step: 7 }, { session: 's', tool: 'd' }]));
    const steps = (await collect([file])).flatMap((i) => (i.kind === 'call' ? [`${i.session}:${i.event.tool}:${i.event.step}`] : []));
    expect(steps).toEqual(['s:a:undefined', 't:b:undefined', 's:c:7', 's:d:undefined']);
  });

  it('should put lines without a session into one session named by the file', async () => {
    const file = write('single.jsonl', jsonl([{ tool: 'a' }, { tool: 'b' }]));
    const items = await collect([file]);
    expect(items.map((i) => (i.kind === 'issue' || i.kind === 'note' ? i.message : `${i.kind}:${i.session}`))).toEqual([`call:${file}`, `call:${file}`]);
  });

  it('should treat error false or "" as no error, and a numeric session id as its text', async () => {
    const file = write('errors.jsonl', jsonl([{ session: 1, tool: 'a', error: false }, { session: 1, tool: 'b', error: '' }, { session: 1, tool: 'c', error: { message: 'boom' } }]));
    const calls = (await collect([file])).filter((i) => i.kind === 'call');
    expect(calls.map((c) => [c.session, c.errorInfo, c.event.error])).toEqual([
      ['1', 'absent', undefined],
      ['1', 'absent', undefined],
      ['1', 'known', { message: 'boom' }],
    ]);
  });

  it('should read gzip by its magic bytes, whatever the name, and plain text named .gz', async () => {
    const text = jsonl(records);
    const expected = await collect([write('plain.jsonl', text)]);
    const strip = (items: TraceItem[]) => items.map((i) => ({ ...i, file: '' }));
    expect(strip(await collect([write('zipped.jsonl.gz', gzipSync(text))]))).toEqual(strip(expected));
    expect(strip(await collect([write('zipped-no-suffix.jsonl', gzipSync(text))]))).toEqual(strip(expected));
    expect(strip(await collect([write('not-zipped.jsonl.gz', text)]))).toEqual(strip(expected));
  });

  it('should read a JSON array of events records', async () => {
    const file = write('array.json', JSON.stringify(records, null, 2));
    const calls = (await collect([file])).filter((i) => i.kind === 'call');
    expect(calls.map((c) => [c.session, c.event.tool, c.line])).toEqual([
      ['a', 'ls', 2],
      ['b', 'cat', 11],
      ['a', 'open', 21],
      ['b', 'cat', 31],
    ]);
  });

  const traces = '/work/shared/data/traces/events.jsonl.gz';
  it.skipIf(!existsSync(traces))('should read the first 2000 lines of the real traces without an issue', async () => {
    const lines: string[] = [];
    const rl = createInterface({ input: createReadStream(traces).pipe(createGunzip()), crlfDelay: Infinity });
    for await (const line of rl) {
      lines.push(line);
      if (lines.length === 2000) break;
    }
    rl.close();
    const file = write('real.jsonl.gz', gzipSync(lines.join('\n') + '\n'));
    const items = await collect([file]);
    const calls = items.filter((i) => i.kind === 'call');
    expect(items.filter((i) => i.kind === 'issue')).toEqual([]);
    expect(calls).toHaveLength(2000);
    const sessions = new Set(lines.map((l) => (JSON.parse(l) as { session: string }).session));
    expect(sessions.size).toBeGreaterThan(1);
    expect(items.filter((i) => i.kind === 'end')).toEqual([]);
    lines.forEach((l, k) => {
      const r = JSON.parse(l) as { session: string; tool: string; step: number; args: unknown; error?: unknown };
      const c = calls[k]!;
      expect([c.session, c.event.tool, c.event.step, c.event.args, c.line]).toEqual([r.session, r.tool, r.step, r.args, k + 1]);
      expect(c.errorInfo).toBe(r.error === undefined || r.error === null ? 'absent' : 'known');
    });
  });
});
