/**
 * hostile30: the folder cap (`LOOPWATCH_MAX_FOLDER_ENTRIES`) was per folder: a tree of many folders, each
 * within it, was walked whole (1,000 folders of 999,999 entries passed), and a walk held the cap's worth per
 * level. It is now the walk's (formats/walk-budget.ts): one issue names the walk's root and where it
 * stopped, the folders after it are not walked, the scan exits 2. A folder whose size bounds its entries
 * within the cap (formats/folder-size-bound.ts) is listed once, with `readdir`, not counted first.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { MAX_FOLDER_ENTRIES_ENV, folderEntries } from '../src/formats/folder-entries.js';
import { folderSizeBound } from '../src/formats/folder-size-bound.js';
import { CLI, tempDir } from './helpers/cli.js';
import { listed } from './helpers/listed-inputs.js';

vi.mock('node:fs/promises', async (original) => {
  const real = await original<typeof import('node:fs/promises')>();
  return { ...real, opendir: vi.fn(real.opendir) };
});

const call = `${JSON.stringify({ session: 'x', tool: 'Bash', args: { command: 'ls' } })}\n`;
// 20 folders of 10 trace files each: 220 entries in all, 10 (or 20) in any one folder
const root = tempDir();
for (let f = 0; f < 20; f++) {
  const d = join(root, `f${String(f).padStart(2, '0')}`);
  mkdirSync(d);
  for (let i = 0; i < 10; i++) writeFileSync(join(d, `s${i}.jsonl`), call);
}


describe('the folder cap holds for a whole walk', () => {
  it('should stop a tree of folders each within the cap once the walk passes it, naming the root once', async () => {
    const r = await listed(root, 50);
    // the root's 20 folders, then f00..f02 (30 files): 50; f03's listing passes it, none of it fits
    expect(r.files).toEqual(['f00', 'f01', 'f02'].flatMap((f) => Array.from({ length: 10 }, (_, i) => `${f}/s${i}.jsonl`)));
    expect(r.issues).toEqual([expect.stringContaining(`${root}: the walk holds more than 50 trace files and folders`)]);
    expect(r.issues[0]).toContain(`it stopped at ${join(root, 'f03')}, which holds 10 of them, of which the first 0 by name were read; the folders after it were not walked`);
  });

  it('should walk the whole tree, with no issue, at the cap exactly', async () => {
    const r = await listed(root, 220);
    expect(r.files).toHaveLength(200);
    expect(r.issues).toEqual([]);
  });

  it('should say it through the CLI, naming the root, and exit 2', () => {
    const r = spawnSync(process.execPath, [CLI, 'scan', root, '--no-progress', '--workers', '0'], { encoding: 'utf8', env: { ...process.env, [MAX_FOLDER_ENTRIES_ENV]: '45' } });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr.match(/the walk holds more than 45/g)).toHaveLength(1);
    expect(r.stderr).toContain(`${root}: skipped (read-error): the walk holds more than 45 trace files and folders`);
    expect(r.stderr).toContain(`it stopped at ${join(root, 'f02')}, which holds 10 of them, of which the first 5 by name were read`);
  });
});

describe('a folder listed once', () => {
  it('should bound the entries of a folder by its size where the file system allows, and list it with readdir alone', async () => {
    const dir = join(tempDir(), 'many');
    mkdirSync(dir);
    for (let i = 0; i < 300; i++) closeSync(openSync(join(dir, `${i}.json`), 'w'));
    const bound = await folderSizeBound(dir);
    if (bound === null) return; // a file system whose folder size bounds nothing (overlayfs, NFS): counted first, as before
    expect(bound).toBeGreaterThanOrEqual(300);
    const opendir = vi.mocked(fsp.opendir);
    opendir.mockClear();
    const { entries, seen } = await folderEntries(dir, () => true, 1_000_000);
    expect(seen).toBe(300);
    expect(entries[0]?.name).toBe('0.json');
    expect(opendir).not.toHaveBeenCalled();
    // a cap below what its size allows: counted, then the first by name held
    const capped = await folderEntries(dir, () => true, 10);
    expect(capped.entries.map((e) => e.name)).toEqual(Array.from({ length: 300 }, (_, i) => `${i}.json`).sort().slice(0, 10));
    expect(opendir).toHaveBeenCalled();
  });
});
