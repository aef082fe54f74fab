/**
 * Inspect AI `.eval` logs (zip archives) read in place: the samples read as the JSON form reads them, the
 * task from header.json or the journal's start.json, a sample written again read once (the last), stored,
 * deflate, data descriptors and ZIP64 end records; and hostile archives built here (bombs, overlapping
 * entries, truncation, bad CRCs, 100k entries, names that climb out, methods not read): each a clear issue
 * naming the file (and the entry), the rest of the archive and the other inputs still read.
 */
import { gzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { archiveRecords } from '../src/formats/inspect-eval-archive.js';
import { MAX_STREAMED_ARCHIVE_BYTES, streamedArchiveRecords } from '../src/formats/streamed-archive.js';
import type { TraceCall } from '../src/formats/trace-record.js';
import { MAX_ZIP_ENTRIES } from '../src/formats/zip-directory.js';
import { collect, scratchDir } from './helpers/trace-files.js';
import { type ZipSpec, buildZip } from './helpers/zip-builder.js';

const { dir, write } = scratchDir('formats-inspect-eval');

const spec = { task: 'ctf', task_id: 'k3x', model: 'openai/gpt-5' };
const header = JSON.stringify({ version: 2, status: 'success', eval: spec, plan: {}, results: {}, stats: {} });
const start = JSON.stringify({ version: 2, eval: { ...spec, task: 'ctf-live' }, plan: {} });
const sample = (id: string, epoch: number, result = 'listed') => JSON.stringify({
  id,
  epoch,
  messages: [
    { role: 'user', content: 'Find the flag.' },
    { role: 'assistant', content: 'Looking.', tool_calls: [{ id: 'a', function: 'bash', arguments: { cmd: 'ls' } }] },
    { role: 'tool', tool_call_id: 'a', content: result, error: null },
  ],
  attachments: {},
});
const callOf = (file: string, session: string, line: number, result = 'listed') => [
  { kind: 'call', session, event: { tool: 'bash', args: { cmd: 'ls' }, result, text: 'Looking.', step: 0, round: 0 }, errorInfo: 'absent', file, line },
  { kind: 'end', session, file },
];
const issues = (items: Awaited<ReturnType<typeof collect>>) => items.filter((i) => i.kind === 'issue').map((i) => i.kind === 'issue' && [i.code, i.file, i.message]);
const calls = (items: Awaited<ReturnType<typeof collect>>) => items.filter((i) => i.kind === 'call').map((i) => i.kind === 'call' && `${i.session}:${String(i.event.result)}`);

describe('Inspect AI .eval archives', () => {
  it('should read each sample entry as a session, the task from header.json, a sample written twice once (the last)', async () => {
    const file = write('logs/2026-12-05T10-00-00_ctf_k3x.eval', buildZip([
      { name: '_journal/start.json', data: start },
      { name: 'samples/web-1_epoch_1.json', data: sample('web-1', 1, 'old') },
      { name: '_journal/summaries/1.json', data: '[{"id": "web-1", "epoch": 1}]' },
      { name: 'samples/web-1_epoch_2.json', data: sample('web-1', 2), method: 0 },
      { name: 'samples/web-1_epoch_1.json', data: sample('web-1', 1), descriptor: true },
      { name: 'summaries.json', data: '[]' },
      { name: 'header.json', data: header },
    ]));
    expect(await collect([file])).toEqual([...callOf(file, 'ctf/web-1#2', 4), ...callOf(file, 'ctf/web-1#1', 5)]);
  });

  it('should take the task from the journal of a log still being written, read ZIP64 end records, and be found in a folder walk that passes over an eval set\'s own files with a note', async () => {
    const file = write('walk/live.eval', buildZip([{ name: '_journal/start.json', data: start }, { name: 'samples/7_epoch_1.json', data: sample('7', 1) }], { zip64: true }));
    write('walk/logs.json', JSON.stringify({ 'live.eval': { version: 2, status: 'started', eval: spec } }));
    write('walk/eval-set.json', JSON.stringify({ eval_set_id: 'x', tasks: [] }));
    const note = { kind: 'note', file: `${dir}/walk`, line: 0, message: "an Inspect AI log folder: its eval-set.json and logs.json (the set's settings and a listing of the logs, no calls) passed over" };
    expect(await collect([`${dir}/walk`])).toEqual([note, ...callOf(file, 'ctf-live/7#1', 2)]);
  });

  it('should skip hostile entries with one issue each naming the file and the entry, and read the rest', async () => {
    const zeros = Buffer.alloc(40 * 1024 * 1024);
    const specs: ZipSpec[] = [
      { name: 'header.json', data: header },
      { name: 'samples/bomb_epoch_1.json', data: zeros },
      { name: 'samples/liar_epoch_1.json', data: sample('liar', 1), size: 100 },
      { name: 'samples/crc_epoch_1.json', data: sample('crc', 1), crc: 1234 },
      { name: 'samples/ok_epoch_1.json', data: sample('ok', 1) },
      { name: 'samples/twin_epoch_1.json', data: sample('twin', 1), sameOffsetAs: 4 },
      { name: '../../etc/cron.d/x.json', data: '{}' },
      { name: 'samples/zstd_epoch_1.json', data: sample('zstd', 1), method: 93 },
      { name: 'samples/lzma_epoch_1.json', data: sample('lzma', 1), method: 14 },
      { name: 'samples/locked_epoch_1.json', data: sample('locked', 1), flags: 0x801 },
      { name: 'samples/text_epoch_1.json', data: 'not json' },
      { name: 'samples/last_epoch_1.json', data: sample('last', 1) },
    ];
    const file = write('hostile.eval', buildZip(specs));
    const items = await collect([file]);
    const zstdInflates = typeof (await import('node:zlib') as { zstdDecompressSync?: unknown }).zstdDecompressSync === 'function';
    expect(calls(items)).toEqual([...(zstdInflates ? ['ctf/zstd#1:listed'] : []), 'ctf/last#1:listed']);
    const at = (name: string, why: string) => `entry ${JSON.stringify(name)}: ${why}; entry skipped`;
    // where zlib cannot compress Zstandard (before 22.15) the builder stores the JSON as is: not a frame
    const zstdIssue = zstdInflates ? [] : [['read-error', file, at('samples/zstd_epoch_1.json', 'its Zstandard (method 93) data is not a Zstandard frame (magic number 0x6469227b)')]];
    expect(issues(items)).toEqual([
      ['read-error', file, at('../../etc/cron.d/x.json', 'a name that climbs out of its folder (..)')],
      ['read-error', file, expect.stringMatching(/^entry "samples\/bomb_epoch_1.json": inflates \d+ bytes to 41943040, a ratio over 200:1 \(a zip bomb\?\); entry skipped$/)],
      ['read-error', file, at('samples/liar_epoch_1.json', 'inflates past the 100 bytes its directory entry says (a zip bomb?)')],
      ['read-error', file, at('samples/crc_epoch_1.json', 'its CRC-32 does not match (a corrupt entry)')],
      ['read-error', file, at('samples/ok_epoch_1.json', 'its data overlaps entry "samples/twin_epoch_1.json" (a malformed archive or a zip bomb)')],
      ['read-error', file, at('samples/twin_epoch_1.json', 'its data overlaps entry "../../etc/cron.d/x.json" (a malformed archive or a zip bomb)')],
      ...zstdIssue,
      ['read-error', file, at('samples/lzma_epoch_1.json', 'compressed with compression method 14 (only stored, deflate and Zstandard are read)')],
      ['read-error', file, at('samples/locked_epoch_1.json', 'encrypted, which is not read')],
      ['invalid-json', file, expect.stringMatching(/^entry "samples\/text_epoch_1.json": invalid JSON: .*; entry skipped$/)],
    ]);
  });

  it('should say samples stored in chunks (Inspect\'s large-sample layout) are not read, and read the others', async () => {
    const file = write('chunked.eval', buildZip([
      { name: 'header.json', data: header },
      { name: 'samples/big_epoch_1/sample.json', data: '{"id": "big", "epoch": 1}' },
      { name: 'samples/big_epoch_1/messages/0.json', data: '[]' },
      { name: 'samples/small_epoch_1.json', data: sample('small', 1) },
    ]));
    const items = await collect([file]);
    expect(calls(items)).toEqual(['ctf/small#1:listed']);
    expect(issues(items)).toEqual([['read-error', file, "1 sample is stored in chunks (samples/<id>_epoch_<n>/sample.json and messages/...: Inspect's large-sample layout), which loopwatch does not read yet; those samples skipped"]]);
  });

  it('should say an entry over --max-line-bytes is too long, and read the rest', async () => {
    const file = write('big.eval', buildZip([{ name: 'header.json', data: header }, { name: 'samples/big_epoch_1.json', data: sample('big', 1, 'y'.repeat(5000)) }, { name: 'samples/small_epoch_1.json', data: sample('small', 1) }]));
    const items = await collect([file], { maxLineBytes: 4096 });
    expect(calls(items)).toEqual(['ctf/small#1:listed']);
    expect(issues(items)).toEqual([['too-long', file, expect.stringMatching(/^entry "samples\/big_epoch_1.json": inflates to \d+ bytes, over the limit of 4096 \(--max-line-bytes\); entry skipped$/)]]);
  });

  it('should refuse a truncated archive, one of 100k entries, a gzipped one and a zip of other things, read one on standard input, and read the next input', async () => {
    const whole = buildZip([{ name: 'header.json', data: header }, { name: 'samples/1_epoch_1.json', data: sample('1', 1) }]);
    const cut = write('cut.eval', whole.subarray(0, whole.length - 30));
    const many = write('many.eval', buildZip(Array.from({ length: 100_000 }, (_, i) => ({ name: `summaries/${i}.json`, data: '', method: 0 })), { zip64: true }));
    const gz = write('gz.eval.gz', gzipSync(whole));
    const other = write('other.eval', buildZip([{ name: 'word/document.json', data: '{}' }]));
    const good = write('good.eval', whole);
    const items = await collect([cut, many, gz, other, '-', good], { stdin: Readable.from([whole]) });
    // the archive on standard input is read (before: skipped, 'archives are read from files')
    expect(items.filter((i): i is TraceCall => i.kind === 'call').map((c) => c.file)).toEqual(['<stdin>', good]);
    expect(calls(items)).toEqual(['ctf/1#1:listed', 'ctf/1#1:listed']);
    expect(issues(items)).toEqual([
      ['read-error', cut, 'a zip archive that cannot be read: no end of central directory record at the end of the file (a truncated archive, or not a zip archive); input skipped'],
      ['read-error', many, `a zip archive that cannot be read: the archive lists 100000 entries, over the limit of ${MAX_ZIP_ENTRIES}; input skipped`],
      ['read-error', gz, 'a gzipped zip archive, which is not read in place: gunzip it, then scan the archive; input skipped'],
      ['unknown-format', other, 'a zip archive that is not an Inspect AI .eval log (no header.json, _journal/start.json or samples/*.json entry); input skipped'],
    ]);
  });

  it('should read an archive from a stream held whole up to its bound, and skip a larger one saying to give its path', async () => {
    const whole = buildZip([{ name: 'header.json', data: header }, { name: 'samples/1_epoch_1.json', data: sample('1', 1) }]);
    const chunks = async function* () {
      for (let at = 0; at < whole.length; at += 100) yield whole.subarray(at, at + 100);
    };
    const read = async (maxBytes: number) => {
      const out: unknown[] = [];
      for await (const batch of streamedArchiveRecords(chunks(), '<stdin>', { maxEntryBytes: 1 << 20 }, maxBytes)) out.push(...batch.map((i) => (i.kind === 'issue' ? [i.code, i.message] : i.kind)));
      return out;
    };
    expect(await read(whole.length)).toEqual(['record']);
    expect(await read(whole.length - 1)).toEqual([['too-long', `a zip archive (an Inspect AI .eval log is one) of more than ${whole.length - 1} bytes read from a stream, which is held whole to be read (its directory is at its end): give its path instead (a file is read in place, any size); input skipped`]]);
    expect(MAX_STREAMED_ARCHIVE_BYTES).toBe(256 * 1024 * 1024);
  });

  it('should refuse a directory cut short, and an entry without its local header', () => {
    const whole = buildZip([{ name: 'header.json', data: header }, { name: 'samples/1_epoch_1.json', data: sample('1', 1) }]);
    const read = (b: Buffer) => [...archiveRecords({ size: b.length, read: (p, n) => b.subarray(p, p + n) }, 'x.eval', { maxEntryBytes: 1 << 20 })].flat().map((i) => (i.kind === 'issue' ? i.message : i.kind));
    expect(read(Buffer.concat([Buffer.from('junk'), whole]))).toEqual(['a zip archive that cannot be read: central directory entry 1 is cut or malformed; input skipped']);
    const second = whole.indexOf('PK\u0003\u0004', 4);
    const broken = Buffer.from(whole);
    broken.writeUInt32LE(0, second);
    expect(read(broken)).toEqual([`entry "samples/1_epoch_1.json": no local header at offset ${second} (a truncated or malformed archive); entry skipped`]);
  });
});
