/**
 * hostile33: `loopwatch serve`'s state folder read as a stream, and only so far. At start it was listed
 * whole at once (`readdirSync`: every name held, every entry read, however many someone put there), and
 * each session file written at stop read the whole folder again for leftovers of killed writes (8,000
 * sessions: 129 s at load ~24, past a service manager's stop timeout; 19.5 s now). Now the start lists at
 * most MAX_STATE_ENTRIES entries through `opendir`, says when the folder holds more (the rest left for a
 * later start), and removes the leftovers there, once; writes read no folder.
 */
import * as fs from 'node:fs';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { processAlive } from '../src/files/process-alive.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { listStateFiles, pruneSetAside, readStateFiles, stateFileName, writeStateFile } from '../src/serve/state-files.js';

vi.mock('node:fs', async (actual) => {
  const real = await actual<typeof import('node:fs')>();
  return { ...real, opendirSync: vi.fn(real.opendirSync), readdirSync: vi.fn(real.readdirSync) };
});

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  vi.mocked(fs.opendirSync).mockClear();
  vi.mocked(fs.readdirSync).mockClear();
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lw-state-stream-'));
  made.push(dir);
  return dir;
}

/** A pid no process has here. */
function deadPid(): number {
  for (let pid = 4_000_000; ; pid++) if (!processAlive(pid)) return pid;
}

describe('serve state folder read as a stream', () => {
  it('should read at most the bound of entries and say the folder holds more', () => {
    const dir = folder();
    for (let i = 0; i < 10; i++) writeStateFile(dir, `s${i}`, new Uint8Array([1, 2, 3]));
    const listing = listStateFiles(dir, 4);
    expect(listing).toMatchObject({ read: 4, more: true });
    expect(listing.names).toHaveLength(4);
    const read = [...readStateFiles(dir, listing)].map((f) => f.path);
    expect(read).toEqual(listing.names.map((n) => join(dir, n)));
    expect(listStateFiles(dir, 10)).toMatchObject({ read: 10, more: false });
    expect(fs.readdirSync).not.toHaveBeenCalled();
  });

  it('should write session files without reading the folder for each', () => {
    const dir = folder();
    for (let i = 0; i < 50; i++) writeStateFile(dir, `s${i}`, new Uint8Array([1, 2, 3]));
    expect(readdirSync(dir)).toHaveLength(50);
    expect(vi.mocked(fs.opendirSync).mock.calls.length + vi.mocked(fs.readdirSync).mock.calls.length).toBe(1); // the expect's own readdirSync
  });

  it('should remove at start the unfinished writes of a process now gone, and say so, leaving a live one\'s', async () => {
    const dir = folder();
    const gone = `.${stateFileName('a')}.${deadPid()}.tmp`;
    const goneTagged = `.${stateFileName('b')}.${deadPid()}.0badcafe.tmp`;
    const live = `.${stateFileName('c')}.${process.ppid}.tmp`;
    for (const n of [gone, goneTagged, live]) writeFileSync(join(dir, n), 'half', { mode: 0o600 });
    const server = await ServeServer.start({ port: 0, stateDir: dir });
    await server.stop();
    expect(server.restoreReport.notes).toEqual([`2 unfinished session files of an earlier run removed from ${dir}`]);
    expect(readdirSync(dir)).toEqual([live]);
  });

  it('should keep the newest set-aside files whatever order the folder lists them in (guard)', () => {
    const dir = folder();
    const t0 = Date.now() / 1000 - 86_400;
    // 150 files, dated in an order unrelated to their names or their making
    const ages = Array.from({ length: 150 }, (_, i) => (i * 7919) % 150);
    ages.forEach((age, i) => {
      const p = join(dir, `${stateFileName(`x${i}`)}.bad`);
      writeFileSync(p, 'junk', { mode: 0o600 });
      utimesSync(p, t0 + age * 60, t0 + age * 60);
    });
    expect(pruneSetAside(dir, 100)).toBe(50);
    const left = new Set(readdirSync(dir));
    ages.forEach((age, i) => expect(left.has(`${stateFileName(`x${i}`)}.bad`)).toBe(age >= 50));
  });
});
