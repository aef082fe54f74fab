/**
 * The `.<name>.<pid>.tmp` a write killed by SIGKILL leaves beside a file (files/replace-whole.ts) is removed
 * by the next write of the same file, whoever writes it: `hook install`'s settings file (writeSettings) as the
 * commands' outputs. Only a regular file of this user, of a process that is gone: a live process's, a link
 * (and what it points to), another name's, stay. In-process; the dead pid is a finished child's.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSettings } from '../src/hooks/settings-file.js';
import { tempFolder } from './helpers/temp-folder.js';

/** The pid of a process that has ended. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid as number;
}

describe('leftovers of a killed whole-file write', () => {
  it('should be removed when the same settings file is written again, and nothing else', () => {
    const dir = tempFolder('stale-temps');
    const path = join(dir, 'settings.json');
    writeFileSync(path, '{}\n');
    const dead = deadPid();
    const left = join(dir, `.settings.json.${dead}.tmp`);
    writeFileSync(left, '{"half": ');
    const live = join(dir, `.settings.json.${process.ppid}.tmp`); // a live process's (vitest's own)
    writeFileSync(live, 'being written');
    const other = join(dir, `.other.json.${dead}.tmp`);
    writeFileSync(other, 'another name');
    writeFileSync(join(dir, 'target'), 'kept');
    const link = join(dir, `.settings.json.${dead + 1_000_000}.tmp`);
    symlinkSync(join(dir, 'target'), link);
    // a process of this pid before it left one (a container's pids repeat): in the way of this write
    const samePid = join(dir, `.settings.json.${process.pid}.tmp`);
    writeFileSync(samePid, 'an earlier process of the same pid');
    writeSettings({ path, text: '{}\n', settings: {} }, '{"hooks":{}}\n', new Date('2026-01-02T03:04:05.678Z'), false);
    expect(readFileSync(path, 'utf8')).toBe('{"hooks":{}}\n');
    expect(readdirSync(dir).sort()).toEqual([`.other.json.${dead}.tmp`, `.settings.json.${dead + 1_000_000}.tmp`, `.settings.json.${process.ppid}.tmp`, 'settings.json', 'target'].sort());
    expect(readFileSync(live, 'utf8')).toBe('being written');
    expect(readFileSync(join(dir, 'target'), 'utf8')).toBe('kept');
    expect(readFileSync(other, 'utf8')).toBe('another name');
  });
});
