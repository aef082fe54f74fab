/**
 * The redaction corpus (`helpers/secret-corpus.ts`) through every CLI output (issue 30, item 4; issue 28,
 * item 13): `scan` as text, `--json`, `--jsonl`, `--html` and `--markdown`, its stderr lines about skipped
 * input, and `explain` as text and `--json`. Each secret is a session's id, its tool name, args and result
 * (three calls: a verdict quoting them); each ordinary text too, and it must come out whole where the
 * output shows that field whole, so a check can never pass because the text was not printed at all.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { type CliRun, tempDir, writeJsonl } from './helpers/cli.js';
import { readReport } from './helpers/report-fixture.js';
import { ORDINARY_CORPUS, SECRET_CORPUS, leakedSecrets } from './helpers/secret-corpus.js';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Three identical calls of session `id` whose tool, args and result all hold `text`. */
const calls = (id: string, text: string): unknown[] => Array.from({ length: 3 }, () => ({ session: id, tool: id, args: { cmd: text }, result: text }));
const secretId = (i: number): string => `s${i} ${SECRET_CORPUS[i]?.text}`;
const ordinaryId = (i: number): string => `o${i} ${ORDINARY_CORPUS[i]?.text}`;

const lines: unknown[] = [];
SECRET_CORPUS.forEach((s, i) => lines.push(...calls(secretId(i), s.text)));
ORDINARY_CORPUS.forEach((t, i) => lines.push(...calls(ordinaryId(i), t.text)));
// lines the reader skips, each quoting a secret in its message (a field of the wrong type)
for (const s of SECRET_CORPUS) lines.push({ session: 'bad', tool: 'run', step: s.text });
const events = writeJsonl(dir, 'events.jsonl', lines);
// one session of every text, for explain
const all = writeJsonl(dir, 'all.jsonl', [...SECRET_CORPUS, ...ORDINARY_CORPUS].map((s, i) => ({ session: 'all', tool: `t${i}`, args: { cmd: s.text }, result: s.text })));

/** Asserts that `out` shows no part of any secret of the corpus. */
function showsNoSecret(what: string, out: string): void {
  expect(leakedSecrets(out), what).toEqual([]);
}

const scan = (...flags: string[]): Promise<CliRun> => loopwatchInProcess(['scan', events, '--workers', '1', '--no-progress', '--top', '10000', ...flags]);

describe('the redaction corpus in scan outputs', () => {
  it('should show no secret in the text summary, nor on stderr, and every ordinary text whole', async () => {
    const r = await scan();
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('skipped (bad-record)');
    showsNoSecret('summary', r.stdout);
    showsNoSecret('stderr', r.stderr);
    for (const [i] of ORDINARY_CORPUS.entries()) expect(r.stdout, ordinaryId(i)).toContain(ordinaryId(i));
  }, 180_000); // a scan of the corpus in this process now (vitest's timer runs): past 60 s at load ~30

  it('should show no secret in --json or --jsonl, and every ordinary text whole', async () => {
    for (const flag of ['--json', '--jsonl']) {
      const r = await scan(flag);
      showsNoSecret(flag, r.stdout);
      for (const [i] of ORDINARY_CORPUS.entries()) expect(r.stdout, `${flag}: ${ordinaryId(i)}`).toContain(JSON.stringify(ordinaryId(i)));
    }
  }, 180_000); // two scans of the corpus in this process now: past 60 s at load ~30

  it('should show no secret in the HTML report (table, timelines), and every ordinary text whole', async () => {
    // a report gives at most 1,000 timelines (hostile7's corpus has more secrets): the secrets go in parts,
    // each part's report with every ordinary text too
    const PART = 900;
    for (let from = 0; from < SECRET_CORPUS.length; from += PART) {
      const part: unknown[] = [];
      const secrets = SECRET_CORPUS.slice(from, from + PART);
      secrets.forEach((s, k) => part.push(...calls(secretId(from + k), s.text)));
      ORDINARY_CORPUS.forEach((t, i) => part.push(...calls(ordinaryId(i), t.text)));
      const file = writeJsonl(dir, `part-${from}.jsonl`, part);
      const html = join(dir, `report-${from}.html`);
      const r = await loopwatchInProcess(['scan', file, '--workers', '1', '--no-progress', '--top', '10000', '--html', html, '--timelines', '1000']);
      expect(r.stderr).toContain('HTML report written');
      const report = readReport(html);
      const data = JSON.stringify([report.rows, report.doc]);
      showsNoSecret(`html of secrets ${from}-`, report.html);
      expect(report.doc.timelines.items.length).toBeGreaterThan(secrets.length);
      for (const [i] of ORDINARY_CORPUS.entries()) expect(data, ordinaryId(i)).toContain(JSON.stringify(ordinaryId(i)));
    }
  }, 120_000);

  it('should show no secret in the Markdown summary, and every ordinary text whole (its escapes aside)', async () => {
    const r = await scan('--markdown');
    showsNoSecret('markdown', r.stdout);
    const plain = r.stdout.replace(/\\(.)/g, '$1').replace(/\u200d/g, '');
    for (const [i] of ORDINARY_CORPUS.entries()) expect(plain, ordinaryId(i)).toContain(ordinaryId(i));
  });
});

describe('the redaction corpus in explain', () => {
  it('should show no secret in explain, as text or --json, and every ordinary text whole', async () => {
    const text = await loopwatchInProcess(['explain', 'all', all]);
    const json = await loopwatchInProcess(['explain', 'all', all, '--json']);
    expect(json.code, json.stderr).toBe(0);
    showsNoSecret('explain', text.stdout);
    showsNoSecret('explain --json', json.stdout);
    const outcomes = (JSON.parse(json.stdout) as { outcome: string }[]).map((r) => r.outcome);
    for (const t of ORDINARY_CORPUS) expect(outcomes, t.name).toContain(t.text);
  });

  it('should show no secret when asked for a session that is not there (the ids it suggests)', async () => {
    const r = await loopwatchInProcess(['explain', 's', events]);
    expect(r.stderr).toContain('sessions whose id contains it');
    showsNoSecret('explain stderr', r.stderr);
  });
});
