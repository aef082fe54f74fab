/**
 * The labels reader (src/formats/session-labels.ts): `{session, exit_status}` lines (or `label`) read into
 * labels by session id, plain or gzip; bad lines are issues naming file and line while the rest is kept;
 * the first label of an id wins; a labels file is told from a trace file by its first record; a folder walk
 * passes over the files it is told to ignore.
 */
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { LABELS_FILE_NAME, MAX_LABEL_LENGTH, looksLikeLabels, readSessionLabels } from '../src/formats/session-labels.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const line = (v: unknown): string => `${JSON.stringify(v)}\n`;

describe('session labels', () => {
  it('should read exit_status (else label), resolved and agent by session id', async () => {
    const { write } = scratchDir('labels');
    const path = write(LABELS_FILE_NAME, line({ session: 'a', exit_status: 'submitted', resolved: true, agent: 'SWE-agent', n_calls: 3 }) + '\n' + line({ session: 'b', label: 'step_limit' }));
    const got = await readSessionLabels(path);
    expect(got.issues).toEqual([]);
    expect(got.skipped).toBe(0);
    expect([...got.labels.values()]).toEqual([
      { session: 'a', label: 'submitted', resolved: true, agent: 'SWE-agent' },
      { session: 'b', label: 'step_limit', resolved: null, agent: null },
    ]);
  });

  it('should read a gzip file the same', async () => {
    const { write } = scratchDir('labels');
    const path = write('labels.jsonl.gz', gzipSync(line({ session: 'a', exit_status: 'exit_cost' })));
    expect((await readSessionLabels(path)).labels.get('a')?.label).toBe('exit_cost');
  });

  it('should name each bad line, keep the first label of an id, and read the rest', async () => {
    const { write } = scratchDir('labels');
    const path = write('l.jsonl', [line({ session: 'a', exit_status: 'submitted' }), '{not json\n', line({ session: 'b' }), line([1]), line({ session: 'a', exit_status: 'step_limit' }), line({ session: 'c', exit_status: 'x'.repeat(500) })].join(''));
    const got = await readSessionLabels(path);
    expect(got.issues.map((i) => [i.code, i.line])).toEqual([
      ['invalid-json', 2],
      ['bad-record', 3],
      ['bad-record', 4],
      ['bad-record', 5],
    ]);
    expect(got.issues[3]?.message).toBe('session "a" is labelled again; the first label is kept');
    expect(got.labels.get('a')?.label).toBe('submitted');
    expect(got.labels.get('c')?.label).toHaveLength(MAX_LABEL_LENGTH);
    expect(got.skipped).toBe(4);
  });

  it('should keep at most maxLabels labels and say so', async () => {
    const { write } = scratchDir('labels');
    const path = write('l.jsonl', ['a', 'b', 'c', 'd'].map((s) => line({ session: s, exit_status: 'submitted' })).join(''));
    const got = await readSessionLabels(path, 2);
    expect(got.labels.size).toBe(2);
    expect(got.skipped).toBe(2);
    expect(got.issues[0]?.message).toBe('more than 2 labels: not kept');
  });

  it('should report a missing file as an issue, never throw', async () => {
    const got = await readSessionLabels('/no/such/labels.jsonl');
    expect(got.labels.size).toBe(0);
    expect(got.issues.map((i) => i.code)).toEqual(['missing-input']);
  });

  it('should tell a labels file from a trace file by its first record', async () => {
    const { write } = scratchDir('labels');
    expect(await looksLikeLabels(write('a.jsonl', line({ session: 'a', exit_status: 'submitted' })))).toBe(true);
    expect(await looksLikeLabels(write('b.jsonl', line({ session: 'a', tool: 'bash', exit_status: 'x' })))).toBe(false);
    expect(await looksLikeLabels(write('c.jsonl', '{oops\n'))).toBe(false);
    expect(await looksLikeLabels('/no/such/file')).toBe(false);
  });

  it('should let a folder walk pass over ignored files', async () => {
    const { dir, write } = scratchDir('labels');
    write('run.jsonl', line({ session: 'a', tool: 't' }));
    write(LABELS_FILE_NAME, line({ session: 'a', exit_status: 'submitted' }));
    const items = await collect([dir], { ignore: [join(dir, LABELS_FILE_NAME)] });
    expect(items.map((i) => i.kind)).toEqual(['call']);
    const named = await collect([join(dir, LABELS_FILE_NAME)], { ignore: [join(dir, LABELS_FILE_NAME)] });
    expect(named.map((i) => i.kind)).toEqual(['issue']);
  });
});
