/**
 * `loopwatch scan --html FILE`, read back without a browser (test/report-browser.test.ts opens it in one):
 * one self-contained file whose data holds hostile session ids, args and results as written but never as
 * markup; the rows, matrix and totals of the scan; labels picked up beside the traces (and that file not
 * read as a trace) or given with --labels; timelines for the worst sessions and a sample, whose verdicts are
 * the scan's; what it says when there can be none; and the usage errors of the report flags.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TIMELINE_SAMPLE } from '../src/report/timeline-picks.js';
import { tempDir, verdictLines, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { CLEAN_ID, HOSTILE_IDS, SECRET_ID, hostileFolder, readReport, sessionCalls } from './helpers/report-fixture.js';
import { traceDir } from './helpers/traces.js';

const shownIds = [...HOSTILE_IDS.filter((id) => id !== SECRET_ID), 'token=[REDACTED]', CLEAN_ID];

describe('scan --html', () => {
  it('should write one self-contained file holding hostile ids as data, never as markup', async () => {
    const { dir } = hostileFolder();
    const out = join(tempDir(), 'report.html');
    const run = await loopwatchInProcess(['scan', dir, '--html', out, '--workers', '0']);
    expect(run.code).toBe(1); // loops at break, nothing skipped: the labels file was not read as a trace
    expect(run.stderr).toContain(`labels of 6 sessions from ${join(dir, 'sessions.jsonl')}`);
    expect(run.stderr).toContain(`HTML report written to ${out}`);
    const { html, rows, doc } = readReport(out);
    // the page's own three script elements, and nothing from the data that could open or close one
    expect(html.match(/<script/gi)).toHaveLength(3);
    expect(html.match(/<\/script/gi)).toHaveLength(3);
    expect(html).not.toMatch(/<img|<b>|alert\(1\)<|sk-abcdef/i);
    // loads nothing: no source or link attributes, no URLs, and a policy that forbids loading anything
    expect(html).not.toMatch(/<[^>]*\s(src|href)=|https?:\/\//i);
    expect(html).toContain('content="default-src &#39;none&#39;; style-src &#39;sha256-');
    expect(rows.map((r) => r.session).sort()).toEqual([...shownIds].sort());
    expect(rows.map((r) => r.row)).toEqual(rows.map((_, i) => i));
    expect(new Set(rows.map((r) => r.file))).toEqual(new Set([join(dir, 'events.jsonl')]));
    const looping = rows.filter((r) => r.session !== CLEAN_ID);
    for (const r of looping) expect(r).toMatchObject({ calls: 12, worst: 'break', kinds: ['exact_repeat'], loopStart: 2, wasted: 6 });
    expect(rows.find((r) => r.session === 'loop-a')).toMatchObject({ label: 'submitted', resolved: true });
    expect(rows.find((r) => r.session === CLEAN_ID)).toMatchObject({ worst: null, wasted: 0, label: 'step_limit', resolved: false });
    expect(doc.totals).toMatchObject({ sessions: 6, calls: 72, flagged: 5, byAction: { warn: 0, ask: 0, break: 5 }, wasted: 30, skipped: 0 });
    expect(doc.matrix).toEqual([{ detector: 'exact_repeat', verdicts: { warn: 5, ask: 0, break: 35 }, sessions: { warn: 5, ask: 0, break: 5 } }]);
    expect(doc.labelSources).toEqual([join(dir, 'sessions.jsonl')]);
    expect(doc.rows).toBe(6);
    expect(doc.cost.callsPerSecond).toBeGreaterThan(0);
    expect(doc.cost.peakRssBytes).toBeGreaterThan(1024 * 1024);
    expect(doc.limits.join(' ')).toContain('3 of the 5 flagged sessions are labelled as having finished');
  });

  it('should give the worst sessions and a sample timelines whose verdicts are the scan verdicts', async () => {
    const { dir, events } = hostileFolder();
    const out = join(tempDir(), 'report.html');
    await loopwatchInProcess(['scan', dir, '--html', out, '--timelines', '2', '--workers', '0']);
    const { rows, doc } = readReport(out);
    const t = doc.timelines;
    expect(t).toMatchObject({ worst: 2, sampled: TIMELINE_SAMPLE, missing: null });
    expect(t.items.filter((i) => i.why === 'worst')).toHaveLength(2);
    expect(t.items.length).toBeLessThanOrEqual(2 + TIMELINE_SAMPLE);
    const jsonl = verdictLines((await loopwatchInProcess(['scan', events, '--jsonl', '--workers', '0'])).stdout);
    for (const item of t.items) {
      const row = rows[item.row];
      expect(row).toBeDefined();
      expect(item.calls).toBe(row?.calls);
      expect(item.shown.map((c) => c.index)).toEqual(Array.from({ length: 12 }, (_, i) => i));
      const original = HOSTILE_IDS.find((id) => (id === SECRET_ID ? 'token=[REDACTED]' : id) === row?.session) ?? CLEAN_ID;
      const expected = jsonl.filter((v) => v.session === original).map((v) => [v.index, v.action, v.kind, v.loopStart]);
      expect(item.shown.filter((c) => c.verdict !== null).map((c) => [c.index, c.verdict?.action, c.verdict?.kind, c.verdict?.loopStart])).toEqual(expected);
      if (expected.length > 0) expect(item).toMatchObject({ spans: [[2, 11]], firstBreak: 5 });
    }
    const call = t.items[0]?.shown[5];
    expect(call).toMatchObject({ tool: 'bash', failed: true });
    expect(call?.args).toContain('</script><b>bold</b>');
    expect(call?.outcome).toContain('<script>alert(3)</script>');
  });

  it('should list only the sessions passing --action, and keep no timeline with --timelines 0', async () => {
    const { dir } = hostileFolder();
    const out = join(tempDir(), 'report.html');
    await loopwatchInProcess(['scan', dir, '--html', out, '--action', 'break', '--timelines', '0', '--workers', '0']);
    const { rows, doc } = readReport(out);
    expect(rows).toHaveLength(5);
    expect(doc.totals.sessions).toBe(6);
    expect(doc.timelines).toMatchObject({ worst: 0, sampled: 0, items: [], missing: null });
  });

  it('should say why sessions read from standard input have no timeline', async () => {
    const input = [...HOSTILE_IDS.flatMap((id) => sessionCalls(id, true))].map((l) => JSON.stringify(l)).join('\n');
    const out = join(tempDir(), 'report.html');
    const run = await loopwatchInProcess(['scan', '-', '--html', out, '--workers', '0'], input);
    expect(run.code).toBe(1);
    const { rows, doc } = readReport(out);
    expect(rows.map((r) => r.file)).toEqual(Array(5).fill('<stdin>'));
    expect(doc.timelines.items).toEqual([]);
    expect(doc.timelines.missing).toContain('standard input, which cannot be read twice');
  });

  it('should take labels from --labels instead of the file beside the traces, which is then passed over', async () => {
    const { dir } = hostileFolder();
    const other = writeJsonl(tempDir(), 'labels.jsonl', [{ session: 'loop-a', label: 'exit_cost' }, 'not json']);
    const out = join(tempDir(), 'report.html');
    const run = await loopwatchInProcess(['scan', dir, '--html', out, '--labels', other, '--workers', '0', '--allow-skipped']);
    expect(run.stderr).toContain(`labels of 1 sessions from ${other} (--labels)`);
    expect(run.stderr).toContain(`${join(dir, 'sessions.jsonl')} looks like labels: not read as a trace (and not used: --labels was given)`);
    expect(run.stderr).toContain(`${other}:2: skipped (invalid-json)`);
    const { rows, doc } = readReport(out);
    expect(rows.filter((r) => r.label !== null).map((r) => [r.session, r.label])).toEqual([['loop-a', 'exit_cost']]);
    expect(doc.totals.skipped).toBe(1);
    // a bad labels line is skipped input like any other: exit 2 without --allow-skipped
    expect((await loopwatchInProcess(['scan', dir, '--labels', other, '--workers', '0'])).code).toBe(2);
  });

  it.skipIf(traceDir === null)('should label the real traces from the sessions.jsonl beside them, with timelines that agree with the table', async () => {
    const out = join(tempDir(), 'report.html');
    const run = await loopwatchInProcess(['scan', traceDir as string, '--html', out]);
    expect(run.code).toBe(1); // the labels file is not read as a trace: nothing skipped
    const { rows, doc } = readReport(out);
    expect(rows).toHaveLength(doc.totals.sessions);
    expect(rows.every((r) => r.label !== null)).toBe(true);
    expect(doc.labelSources).toEqual([join(traceDir as string, 'sessions.jsonl')]);
    expect(doc.timelines.items.length).toBe(doc.timelines.worst + doc.timelines.sampled);
    for (const t of doc.timelines.items) {
      const row = rows[t.row];
      expect(t.calls).toBe(row?.calls);
      expect(t.note).toBeNull();
      const shownVerdicts = t.shown.filter((c) => c.verdict !== null).length;
      const leftOut = (['warn', 'ask', 'break'] as const).reduce((n, a) => n + (t.before?.verdicts[a] ?? 0) + (t.after?.verdicts[a] ?? 0), 0);
      expect(shownVerdicts + leftOut).toBe(row?.verdicts);
      expect(t.firstBreak).toBe(row?.firstBreak);
    }
  }, 180_000); // the real traces scanned in this thread (a spawned scan had no vitest timeout while spawnSync blocked)

  it('should refuse report flags that cannot work, before reading anything', async () => {
    const { dir, events } = hostileFolder();
    const cases: [string[], string][] = [
      [['--html'], '--html needs a value'],
      [['--html', ''], '--html needs a file name'],
      [['--html', events], `--html ${events}: the scan reads that file; it would be overwritten`],
      [['--html', join(dir, 'r.html'), '-o', join(dir, 'r.html')], `--html ${join(dir, 'r.html')}: --output writes that file already`],
      [['--html', join(dir, 'no/such/dir/r.html')], `--html ${join(dir, 'no/such/dir/r.html')}: cannot write the file (no such file or folder)`],
      [['--markdown', '--json'], '--markdown without a file and --json cannot be used together (write --markdown=FILE for both)'],
      [['--timelines', '1001'], '--timelines must be an integer from 0 to 1,000, received "1001"'],
      [['--labels', join(dir, 'none.jsonl')], `--labels ${join(dir, 'none.jsonl')}: no such file`],
    ];
    const before = readFileSync(events, 'utf8');
    for (const [flags, message] of cases) {
      const run = await loopwatchInProcess(['scan', dir, ...flags, '--workers', '0']);
      expect(run.stderr).toMatch(/^loopwatch scan: .* \(see loopwatch scan --help\)\n$/);
      expect(run.stderr).toContain(message);
      expect(run.code).toBe(2);
    }
    expect(readFileSync(events, 'utf8')).toBe(before);
    expect((await loopwatchInProcess(['scan', events, '-o', events])).stderr).toContain(`--output ${events}: the scan reads that file; it would be overwritten`);
  });
});

describe('scan --markdown', () => {
  it('should print the Markdown summary instead of the text one, ids escaped inside their cells', async () => {
    const { dir } = hostileFolder();
    const run = await loopwatchInProcess(['scan', dir, '--markdown', '--workers', '0']);
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('## loopwatch scan');
    const table = lines.slice(lines.indexOf('### Worst sessions') + 2);
    const header = table[0] as string;
    const cells = (l: string): number => l.replace(/\\\|/g, '').split('|').length;
    const rows = table.filter((l) => l.startsWith('| ') && l !== header && !l.startsWith('| ---'));
    expect(rows).toHaveLength(5);
    for (const r of rows) expect(cells(r)).toBe(cells(header));
    expect(run.stdout).toContain('| \\</script\\>\\<script\\>alert(1)\\</script\\> |');
    expect(run.stdout).toContain('| a\\|b\\|c \\`x\\` \\*y\\* |');
    expect(run.stdout).toContain('| token=\\[REDACTED\\] |');
    expect(run.stdout).not.toContain('sk-abcdef');
    expect(run.stdout).toContain('| 6 | 72 | 5 (83.3%) | 5 | 0 | 0 | 30 | 41.7% |');
    expect(run.stdout).toContain('| exact\\_repeat | 5 | 0 | 35 |');
  });

  it('should write --markdown FILE.md and --markdown=FILE beside the usual output, never taking a path to scan for the file', async () => {
    const { dir, events } = hostileFolder();
    const out = tempDir();
    const md = join(out, 'summary.md');
    const both = await loopwatchInProcess(['scan', '--markdown', md, dir, '--json', '--workers', '0']);
    expect(JSON.parse(both.stdout).summary.sessions).toBe(6);
    expect(readFileSync(md, 'utf8')).toContain('## loopwatch scan');
    const step = join(out, 'step_summary_1');
    writeFileSync(step, '');
    await loopwatchInProcess(['scan', events, `--markdown=${step}`, '--workers', '0']);
    expect(readFileSync(step, 'utf8')).toContain('### Worst sessions');
    // a bare --markdown before a path: the path is scanned, and the report is the Markdown
    const bare = await loopwatchInProcess(['scan', '--markdown', events, '--workers', '0']);
    expect(bare.stdout.startsWith('## loopwatch scan')).toBe(true);
  });
});
