/**
 * hostile24: a folder a user scans (a cloned repository's recorded runs, a colleague's upload) can hold
 * names that are not valid UTF-8. Node reads them as text with each bad byte as U+FFFD, a path that names
 * no file: `scan` said "read-error ... ENOENT: no such file or directory" of a file that is there, under a
 * name that was not its own (two such names looked the same), and a folder so named was "cannot read the
 * folder". Now each is an issue naming it with its bad bytes as `\xNN` and saying why it is not read, the
 * other files read as before, exit 2. Through the real CLI; and the names holding OSC 0, OSC 8, CSI 2J,
 * CR, LF and C1 CSI beside them reach stdout, stderr, `--jsonl`, `--markdown` and `--metrics` as escapes.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shownName } from '../src/formats/byte-names.js';
import { CLI, tempDir } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

/** What a terminal acts on: C0 but the line feed ending each line, DEL, C1, bidirectional controls, line separators. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Five identical failing calls of session `s`, as events JSON lines. */
const calls = (s: string): string => `${JSON.stringify({ session: s, tool: 'Bash', args: { command: 'make' }, error: 'Exit code 2' })}\n`.repeat(5);

const dir = tempDir();
const root = Buffer.from(dir);
const at = (...parts: Buffer[]): Buffer => Buffer.concat([root, ...parts.flatMap((p) => [Buffer.from('/'), p])]);
writeFileSync(at(Buffer.from('bad\xff\xfeutf8.jsonl', 'latin1')), calls('undecoded-file'));
mkdirSync(at(Buffer.from('sub\xfe', 'latin1')));
writeFileSync(at(Buffer.from('sub\xfe', 'latin1'), Buffer.from('in.jsonl')), calls('undecoded-folder'));
writeFileSync(at(Buffer.from('odd\xc3.txt', 'latin1')), 'not a trace file: passed over in silence');
const HOSTILE = ['title\u001b]0;OWNED\u0007', 'link\u001b]8;;https:evil\u0007x\u001b]8;;\u0007', 'clear\u001b[2J', 'cr\roverwrite', 'nl\nline', 'c1\u009b31m', 'pipe|md'];
HOSTILE.forEach((name, i) => writeFileSync(join(dir, `${name}.jsonl`), calls(`s${i}`)));
writeFileSync(join(dir, 'plain.jsonl'), calls('plain'));
writeFileSync(join(dir, 'own\ufffd.jsonl'), calls('own-replacement-character')); // U+FFFD of its own, as UTF-8: read

describe('scan of names that are not UTF-8', () => {
  it('should name such a file and folder with their bytes as \\xNN, read the rest, exit 2', async () => {
    const r = await loopwatchInProcess(['scan', dir, '--no-progress', '--workers', '0', '--jsonl', '--min-action', 'break']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${dir}/bad\\xff\\xfeutf8.jsonl: skipped (read-error): the file's name is not valid UTF-8 (shown with those bytes as \\xNN); not read: rename it to scan it`);
    expect(r.stderr).toContain(`${dir}/sub\\xfe: skipped (read-error): the folder's name is not valid UTF-8 (shown with those bytes as \\xNN); not walked: rename it to scan it`);
    expect(r.stderr).not.toContain('\ufffd'); // nothing about own\ufffd.jsonl either: read
    expect(r.stderr).not.toContain('no such file');
    expect(r.stderr).not.toContain('odd'); // not named like a trace file: passed over, as any such file is
    expect(r.stderr).toMatch(/\b2 lines, elements, inputs or calls were skipped/);
    const sessions = new Set(r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { session: string }).session));
    expect([...sessions].sort()).toEqual(['plain', 'own-replacement-character', ...HOSTILE.map((_, i) => `s${i}`)].sort());
  });

  it('should say why a path given on the command line holding U+FFFD is missing', () => {
    // Node turns the command line's bytes that are not UTF-8 into U+FFFD: a shell gives the child the name's bytes
    const r = spawnSync('sh', ['-c', `exec "$0" "$1" scan "$2$(printf '\\377\\376')utf8.jsonl" --no-progress`, process.execPath, CLI, `${dir}/bad`], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain('skipped (missing-input): cannot read the path: no such file or directory (its name holds U+FFFD, which a name that is not valid UTF-8 becomes on the command line: rename it to scan it)');
  });

  it('should show names holding terminal escapes as escapes in every output', async () => {
    const metrics = join(tempDir(), 'm.prom');
    for (const flags of [[], ['--jsonl'], ['--json'], ['--markdown'], ['--metrics', metrics]]) {
      const r = await loopwatchInProcess(['scan', dir, '--no-progress', '--workers', '0', '--top', '20', ...flags]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout, flags.join(' ')).not.toMatch(RAW);
      expect(r.stderr, flags.join(' ')).not.toMatch(RAW);
      if (flags[0] === '--jsonl') for (const l of r.stdout.trim().split('\n')) expect(() => JSON.parse(l)).not.toThrow();
      if (flags[0] === '--markdown') for (const row of r.stdout.split('\n').filter((l) => l.includes('.jsonl'))) expect(row.replaceAll('\\|', '').split('|').length, row).toBe(9);
      if (flags.length === 0) expect(r.stdout).toContain('title\\x1b]0;OWNED\\x07.jsonl');
    }
    expect(readFileSync(metrics, 'utf8')).not.toMatch(RAW);
  });
});

/** `shown` with its `\\xNN` escapes as the bytes they stand for, the rest as UTF-8. */
const bytesOf = (shown: string): Buffer => Buffer.concat(shown.split(/(\\x[0-9a-f]{2})/).map((p) => (/^\\x[0-9a-f]{2}$/.test(p) ? Buffer.from([parseInt(p.slice(2), 16)]) : Buffer.from(p, 'utf8'))));

describe('shownName', () => {
  it('should give valid UTF-8 back as it is, and every other byte as \\xNN', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => shownName(Buffer.from(s, 'utf8')) === s));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        const shown = shownName(bytes);
        expect(shown).not.toContain('\ufffd');
        // the escapes undone give the bytes back (when the name holds no backslash of its own)
        if (!bytes.includes(0x5c)) expect(bytesOf(shown).equals(Buffer.from(bytes))).toBe(true);
      }),
    );
    expect(shownName(Buffer.from([0x61, 0xff, 0xc3, 0xa9, 0xe2, 0x82, 0x62, 0xf0, 0x9f, 0x98, 0x80]))).toBe('a\\xffé\\xe2\\x82b😀');
  });
});
