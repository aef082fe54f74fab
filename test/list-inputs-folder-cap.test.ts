/**
 * hostile28: a folder of millions of entries was listed whole (`readdir`) before it was sorted, every name
 * and `Dirent` held at once (1M entries: ~300 MB; 10M: ~2.5 GB) before one call was read. Now a walk holds
 * at most the cap's worth of one folder's trace files and folders (formats/folder-entries.ts), the first by
 * name whatever order the file system lists them in, and says of a folder past it how many were not read
 * and how to go on; the rest of the walk carries on; the scan exits 2. Other entries (`.txt`) are not held
 * or counted. The cap is lowered here through the option and the environment variable.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_FOLDER_ENTRIES_ENV, folderEntries, folderEntriesCap } from '../src/formats/folder-entries.js';
import { CLI, tempDir } from './helpers/cli.js';
import { listed } from './helpers/listed-inputs.js';

const dir = tempDir();
const big = join(dir, 'big');
mkdirSync(big);
// created in an order that is not the names' (tmpfs lists by creation)
const names = Array.from({ length: 300 }, (_, i) => `s${String((i * 7919) % 300).padStart(3, '0')}.jsonl`);
for (const n of names) closeSync(openSync(join(big, n), 'w'));
for (let i = 0; i < 50; i++) closeSync(openSync(join(big, `note${i}.txt`), 'w'));
mkdirSync(join(dir, 'small'));
const call = `${JSON.stringify({ session: 'x', tool: 'Bash', args: { command: 'ls' } })}\n`;
writeFileSync(join(dir, 'small', 'a.jsonl'), call);
writeFileSync(join(big, 's000.jsonl'), call);


describe('a folder of more entries than the cap', () => {
  // hostile30: the cap is the walk's (the root's 2 folders count too), the folders after the one past it are not walked
  it('should read the first entries by name up to the cap, name the walk with where it stopped, and walk no further', async () => {
    const r = await listed(dir, 100);
    const sorted = [...names].sort();
    expect(r.files).toEqual(sorted.slice(0, 98).map((n) => `big/${n}`));
    expect(r.issues).toHaveLength(1);
    expect(r.issues[0]).toContain(`${dir}: the walk holds more than 100 trace files and folders`);
    expect(r.issues[0]).toContain(`it stopped at ${big}, which holds 300 of them, of which the first 98 by name were read; the folders after it were not walked`);
    expect(r.issues[0]).toContain(MAX_FOLDER_ENTRIES_ENV);
  });

  it('should read every entry, with no issue, at the cap exactly, and not count other files', async () => {
    const r = await listed(dir, 303);
    expect(r.files).toHaveLength(301);
    expect(r.issues).toEqual([]);
  });

  it('should hold the same first entries whatever the cap below the count', async () => {
    for (const max of [1, 7, 64, 299]) {
      const { entries, seen } = await folderEntries(big, (e) => e.name.endsWith('.jsonl'), max);
      expect(seen).toBe(300);
      expect(entries.map((e) => e.name)).toEqual([...names].sort().slice(0, max));
    }
  });

  it('should take the cap from the environment when it is a whole number', () => {
    expect(folderEntriesCap({ [MAX_FOLDER_ENTRIES_ENV]: '25' })).toBe(25);
    expect(folderEntriesCap({ [MAX_FOLDER_ENTRIES_ENV]: '0' })).toBe(1_000_000);
    expect(folderEntriesCap({ [MAX_FOLDER_ENTRIES_ENV]: 'lots' })).toBe(1_000_000);
    expect(folderEntriesCap({})).toBe(1_000_000);
  });

  it('should say so through the CLI, read the rest, and exit 2', () => {
    const r = spawnSync(process.execPath, [CLI, 'scan', dir, '--no-progress', '--workers', '0'], { encoding: 'utf8', env: { ...process.env, [MAX_FOLDER_ENTRIES_ENV]: '10' } });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${dir}: skipped (read-error): the walk holds more than 10 trace files and folders`);
    // big/s000.jsonl, the first by name, is read; small/ (after big/) is not walked
    expect(r.stdout + r.stderr).toMatch(/1 call|1 tool call|calls: 1/);
  });
});
