/**
 * Nothing in the hooks' state folder grows over weeks of use: sessions (subagents' included, which outlive
 * SessionEnd) and leftovers go by age, and so, now, do the markers of notices told once (`.noted/<32 hex>`,
 * one per version of a project's unusable `.loopwatch.json`), which were never removed. Only those names,
 * in a `.noted` that is a folder of its own (not a link to another folder), are swept.
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SESSION_MAX_AGE_MS, sweepIfDue } from '../src/hooks/state-sweep.js';
import { tempFolder } from './helpers/temp-folder.js';

const DAY = 24 * 3600 * 1000;
const H = (n: number): string => n.toString(16).padStart(32, '0');

/** Makes `path` an empty file last touched `ageMs` ago. */
function touch(path: string, ageMs: number, now: number): void {
  writeFileSync(path, '');
  utimesSync(path, (now - ageMs) / 1000, (now - ageMs) / 1000);
}

describe('the sweep of .noted', () => {
  it('should remove markers untouched past the age of sessions, keep newer ones and other names', () => {
    const dir = join(tempFolder('sweep-noted'), 'state');
    const noted = join(dir, '.noted');
    mkdirSync(noted, { recursive: true, mode: 0o700 });
    const now = Date.now();
    for (let i = 0; i < 50; i++) touch(join(noted, H(i)), SESSION_MAX_AGE_MS + DAY, now);
    touch(join(noted, H(99)), DAY, now);
    touch(join(noted, 'README'), SESSION_MAX_AGE_MS + DAY, now);
    touch(join(noted, `${H(7)}.txt`), SESSION_MAX_AGE_MS + DAY, now);
    expect(sweepIfDue(dir, now)).toBe(50);
    expect(readdirSync(noted).sort()).toEqual([H(99), `${H(7)}.txt`, 'README'].sort());
  });

  it('should not sweep through a .noted that is a link to another folder', () => {
    const root = tempFolder('sweep-noted-link');
    const other = join(root, 'other');
    const dir = join(root, 'state');
    mkdirSync(other);
    mkdirSync(dir, { mode: 0o700 });
    const now = Date.now();
    touch(join(other, H(1)), SESSION_MAX_AGE_MS + DAY, now);
    symlinkSync(other, join(dir, '.noted'));
    expect(sweepIfDue(dir, now)).toBe(0);
    expect(existsSync(join(other, H(1)))).toBe(true);
  });
});
