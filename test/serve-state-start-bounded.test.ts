/**
 * hostile31: `loopwatch serve` read every session file of its state folder into memory at once before
 * restoring any (a folder of many or large files: memory at start unbounded), and the files it set aside
 * as `.bad` were never removed. Files are now read one at a time as they are restored (the restored
 * sessions are bounded by `--session-memory`), and a folder keeps the newest MAX_SET_ASIDE set-aside
 * files (by when they were set aside), the older removed and said.
 */
import { mkdtempSync, readdirSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ServeServer } from '../src/serve/serve-server.js';
import { readStateFiles, stateFileName, writeStateFile } from '../src/serve/state-files.js';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lw-state-start-'));
  made.push(dir);
  return dir;
}

describe('serve state folder: a bounded start', () => {
  it('should read the session files one at a time, each when it is asked for', () => {
    const dir = folder();
    for (const id of ['a', 'b', 'c']) writeStateFile(dir, id, new Uint8Array([1, 2, 3]));
    const seen: string[] = [];
    for (const f of readStateFiles(dir)) {
      seen.push('sessionId' in f ? f.sessionId : f.problem);
      // the files not read yet are gone before they are asked for: a lazy reader never sees them
      if (seen.length === 1) for (const n of readdirSync(dir)) if (!n.startsWith(stateFileName(seen[0] as string))) unlinkSync(join(dir, n));
    }
    expect(seen).toHaveLength(1);
  });

  it('should keep the newest 100 files set aside, remove the older at start and say so', async () => {
    const dir = folder();
    // 105 files set aside by earlier starts, the i-th set aside i minutes after the first
    const t0 = Date.now() / 1000 - 3600;
    const names = Array.from({ length: 105 }, (_, i) => `${stateFileName(`old-${i}`)}.bad`);
    names.forEach((n, i) => {
      writeFileSync(join(dir, n), 'junk', { mode: 0o600 });
      utimesSync(join(dir, n), t0 + i * 60, t0 + i * 60);
    });
    // and one this start sets aside: the newest of all
    writeFileSync(join(dir, stateFileName('now')), 'not a session', { mode: 0o600 });
    const server = await ServeServer.start({ port: 0, stateDir: dir });
    await server.stop();
    expect(server.restoreReport.problems.map((p) => p.path)).toEqual([join(dir, `${stateFileName('now')}.bad`)]);
    expect(server.restoreReport.notes).toEqual([`6 older files set aside as .bad in ${dir} removed: the newest 100 are kept`]);
    const left = readdirSync(dir).sort();
    expect(left).toEqual([...names.slice(6), `${stateFileName('now')}.bad`].sort());
  });
});
