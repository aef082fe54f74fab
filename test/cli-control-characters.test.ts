/**
 * Terminal escapes from the input never reach a terminal (issue 30, item 8): session ids, tool names,
 * outcomes, files and labels holding ESC sequences (colours, a clear screen, an OSC 8 link ended by BEL,
 * a window title), NUL, C1 controls (CSI, OSC as single characters) and bidirectional overrides are shown
 * as escapes (`\x1b`, `\u202e`) by `scan` (summary, `--json`, `--jsonl`, Markdown, the HTML report's data,
 * stderr lines) and `explain` (text, `--json`, its messages); and `explain` cuts a cell between code points,
 * never inside an escape.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { cutSafe, headSafe, jsonSafe, terminalSafe } from '../src/text/terminal-text.js';
import { tempDir, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { readReport } from './helpers/report-fixture.js';

/** What a terminal acts on: C0 but line breaks (outputs are lines), DEL, C1, bidirectional controls, line separators. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const HOSTILE = {
  colour: 'red\u001b[31mRED\u001b[0m',
  clear: 'wipe\u001b[2J\u001b[H',
  link: 'see\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007',
  title: 'title\u001b]0;owned\u0007',
  nul: 'nul\u0000byte',
  c1: 'csi\u009b31mC1\u009d0;t\u009c',
  bidi: 'admin\u202eexe.txt\u2066x\u2069',
  lines: 'line\nbreak\rreturn\u2028sep\u2029para\u0085nel',
} as const;

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const lines: unknown[] = [];
for (const [name, bad] of Object.entries(HOSTILE)) {
  for (let k = 0; k < 3; k++) lines.push({ session: `${name} ${bad}`, tool: `tool-${name} ${bad}`, args: { q: bad }, result: `out ${bad}`, error: `err ${bad}` });
}
lines.push({ session: 'bad', tool: 'run', step: `step ${HOSTILE.link}` });
const events = writeJsonl(dir, 'events-\u001b[31m.jsonl', lines);
const sessions = writeJsonl(dir, 'sessions.jsonl', Object.entries(HOSTILE).map(([name, bad]) => ({ session: `${name} ${bad}`, exit_status: `done ${bad}`, agent: `agent ${bad}` })));

/** Asserts `out` holds no raw control and shows the ESC of the input as an escape. */
function safe(what: string, out: string): void {
  const m = RAW_CONTROL.exec(out);
  expect(m, `${what}: raw U+${m?.[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${m?.index}: ${JSON.stringify(out.slice(Math.max(0, (m?.index ?? 0) - 40), (m?.index ?? 0) + 20))}`).toBeNull();
}

describe('control characters in what scan prints', () => {
  it('should show them as escapes in the summary, --json, --jsonl and on stderr', async () => {
    for (const flags of [[], ['--json'], ['--jsonl']]) {
      const r = await loopwatchInProcess(['scan', events, '--workers', '0', '--no-progress', '--top', '100', '--labels', sessions, ...flags]);
      expect(r.stdout.length, r.stderr).toBeGreaterThan(200);
      safe(`scan ${flags.join(' ')}`, r.stdout);
      safe(`scan ${flags.join(' ')} stderr`, r.stderr);
      expect(r.stdout, flags.join(' ')).toMatch(flags.length === 0 ? /red\\x1b\[31mRED/ : /red\\u001b\[31mRED/);
      expect(r.stdout).toContain(flags.length === 0 ? 'admin\\u202eexe.txt' : 'admin\\u202eexe.txt');
    }
  });

  it('should show them as escapes in the Markdown summary, each row on its line', async () => {
    const r = await loopwatchInProcess(['scan', events, '--workers', '0', '--no-progress', '--top', '100', '--markdown']);
    safe('markdown', r.stdout);
    const rows = r.stdout.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| ---'));
    expect(rows.filter((l) => /^\| (colour|clear|link|title|nul|c1|bidi|lines) /.test(l))).toHaveLength(Object.keys(HOSTILE).length);
  });

  it('should keep the HTML report free of them too (its data shows escapes, its markup none)', async () => {
    const html = join(dir, 'report.html');
    await loopwatchInProcess(['scan', events, '--workers', '0', '--no-progress', '--html', html]);
    const report = readReport(html);
    safe('html', report.html.replace(/\t/g, ' ')); // the page script is indented with tabs
    // every string the page will show (ids, files, tools, previews, messages of the timelines)
    const strings: string[] = [];
    JSON.stringify([report.rows, report.doc], (_k, v: unknown) => (typeof v === 'string' ? void strings.push(v) : v));
    expect(strings.filter((t) => RAW_CONTROL.test(t))).toEqual([]);
    expect(strings.some((t) => t.includes('\\u202e'))).toBe(true);
    const ids = report.rows.map((r) => r.session);
    expect(ids).toContain('colour red\\x1b[31mRED\\x1b[0m');
    for (const id of ids) expect(id).not.toMatch(RAW_CONTROL);
  });
});

describe('control characters in what explain prints', () => {
  it('should show them as escapes in its rows, header, footer and --json', async () => {
    // (a command line cannot hold NUL: that session is not named)
    for (const [name, bad] of Object.entries(HOSTILE).filter(([name]) => name !== 'nul')) {
      for (const flags of [[], ['--json']]) {
        const r = await loopwatchInProcess(['explain', `${name} ${bad}`, events, ...flags]);
        expect(r.stdout, r.stderr).toContain(`tool-${name}`);
        safe(`explain ${name} ${flags.join(' ')}`, r.stdout);
        safe(`explain ${name} ${flags.join(' ')} stderr`, r.stderr);
      }
    }
  });

  it('should show them as escapes in the session ids it suggests', async () => {
    const r = await loopwatchInProcess(['explain', 'i', events]);
    expect(r.stderr).toContain('sessions whose id contains it');
    safe('explain suggestions', r.stderr);
  });

  it('should cut a cell between code points and outside escapes', async () => {
    // tool names and outcomes of emoji and escapes, each starting a character later: the cells' cuts fall
    // at every offset of a pair and of an escape
    const emoji = '\u{1F600}'.repeat(40);
    const file = writeJsonl(dir, 'cut.jsonl', Array.from({ length: 24 }, (_, k) => ({ session: 'cut', tool: `${'x'.repeat(k)}${emoji}`, args: { k }, result: `${'y'.repeat(k)}${'\u001b'.repeat(80)}` })));
    const r = await loopwatchInProcess(['explain', 'cut', file]);
    expect(r.stdout).toContain('\\x1b');
    expect(r.stdout).not.toContain('\ufffd');
    expect(r.stdout).not.toMatch(/\\(?:x[0-9a-f]?|u[0-9a-f]{0,3})…/);
    safe('explain cut', r.stdout);
  });
});

describe('terminal-safe text', () => {
  it('should escape every control and keep everything else, cut between code points and escapes', async () => {
    const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
    const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;
    const SHORT: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t' };
    const decode = (s: string): string =>
      s.replace(/\\(?:x([0-9a-f]{2})|u([0-9a-f]{4})|([nrt]))/g, (_m, a: string | undefined, b: string | undefined, c: string | undefined) =>
        c !== undefined ? (SHORT[c] as string) : String.fromCharCode(parseInt(a ?? (b as string), 16)),
      );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }).map((t) => t.replace(/\\/g, '/')), fc.integer({ min: 1, max: 70 }), fc.boolean(), (t, width, fromEnd) => {
        const s = terminalSafe(t);
        expect(s).not.toMatch(RAW_CONTROL);
        expect(decode(s)).toBe(t);
        const cut = cutSafe(s, width, fromEnd);
        if (s.length <= width) return void expect(cut).toBe(s);
        expect(cut.length).toBeLessThanOrEqual(width);
        const body = fromEnd ? cut.slice(1) : cut.slice(0, -1);
        const at = fromEnd ? s.length - body.length : body.length;
        expect(fromEnd ? s.endsWith(body) : s.startsWith(body)).toBe(true);
        expect(isHigh(s.charCodeAt(at - 1)) && isLow(s.charCodeAt(at)), 'a pair cut in two').toBe(false);
        // no escape of s is cut: every escape of s that the kept part touches is whole in it
        for (const m of s.matchAll(/\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|[nrt])/g)) {
          const start = m.index;
          const end = start + m[0].length;
          expect(start < at && end > at, `escape at ${start} cut at ${at}`).toBe(false);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('should not cut inside an escape', async () => {
    const s = terminalSafe('ab\u001bcd\u202eef');
    for (let n = 0; n <= s.length; n++) expect(headSafe(s, n)).not.toMatch(/\\(?:x[0-9a-f]?|u[0-9a-f]{0,3})$/);
    expect(headSafe(s, 5)).toBe('ab');
    expect(cutSafe(s, 6, true)).toBe('…ef');
  });

  it('should escape in JSON text what JSON leaves raw, and read back the same', async () => {
    const value = { id: `a\u009bb\u202ec\u2028d\u007f`, esc: '\u001b' };
    const json = jsonSafe(JSON.stringify(value));
    expect(json).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(json)).toEqual(value);
  });
});
