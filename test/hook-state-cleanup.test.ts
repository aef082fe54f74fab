/**
 * The hooks clean their state directory themselves, cheaply and rarely: a hook whose marker says a day has
 * passed removes sessions untouched for 7 days and leftovers of crashed hooks older than an hour; other
 * hooks only look at the marker.
 */
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SESSION_MAX_AGE_MS } from '../src/hooks/state-sweep.js';
import { beforePayload, hook } from './helpers/hook-payloads.js';
import { tempFolder } from './helpers/temp-folder.js';

const DAY = 24 * 3600 * 1000;

function aged(path: string, ageMs: number): string {
  writeFileSync(path, 'x');
  const t = (Date.now() - ageMs) / 1000;
  utimesSync(path, t, t);
  return path;
}

describe('the state directory', () => {
  it('should lose sessions untouched for 7 days and crashed hooks\' leftovers, once a day', async () => {
    const dir = tempFolder('hook-sweep');
    const old = aged(join(dir, '0123456789abcdef0123456789abcdef.lwhook'), SESSION_MAX_AGE_MS + DAY);
    const recent = aged(join(dir, 'fedcba9876543210fedcba9876543210.lwhook'), SESSION_MAX_AGE_MS - DAY);
    const oldBad = aged(join(dir, 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.bad'), SESSION_MAX_AGE_MS + DAY);
    const tmp = aged(join(dir, 'cccccccccccccccccccccccccccccccc.lwhook.123.0123abcd.tmp'), 2 * 3600 * 1000);
    const lock = aged(join(dir, 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.lock'), 2 * 3600 * 1000);
    const freshTmp = aged(join(dir, 'dddddddddddddddddddddddddddddddd.lwhook.124.4567cdef.tmp'), 60 * 1000);
    const other = aged(join(dir, 'notes.txt'), SESSION_MAX_AGE_MS + DAY);
    const call = { tool: 'Bash', args: { command: 'ls' }, result: 'a' };
    expect(await hook(['--state-dir', dir], beforePayload('claude-code', 's', call, 't1'))).toEqual({ code: 0, stdout: '', stderr: '' });
    expect([old, recent, oldBad, tmp, lock, freshTmp, other].map(existsSync)).toEqual([false, true, false, false, false, true, true]);
    // the marker is fresh: the next hooks do not sweep
    const later = aged(join(dir, '11111111111111111111111111111111.lwhook'), SESSION_MAX_AGE_MS + DAY);
    expect((await hook(['--state-dir', dir], beforePayload('claude-code', 's', call, 't2'))).code).toBe(0);
    expect(existsSync(later)).toBe(true);
    // a day later, one does
    aged(join(dir, '.sweep'), DAY + 60 * 1000);
    expect((await hook(['--state-dir', dir], beforePayload('claude-code', 's', call, 't3'))).code).toBe(0);
    expect(existsSync(later)).toBe(false);
  });
});
