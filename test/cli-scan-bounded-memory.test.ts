/**
 * Scan memory is bounded by `--max-sessions`, not by the sessions in the input: 150,000 sessions in one file
 * scan in a 32 MB heap with `--max-sessions 1000` (each session seen used to cost ~650 B for the whole scan,
 * and the events reader kept a count per session: this ran out of memory), and `--json` still lists every
 * session, written as each one ends; so does the HTML report's table (`--html`), with its timelines (both
 * written by one scan, in the one heap). A Claude
 * Code transcript larger than the heap is read a line at a time (its calls held only until their results come).
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, tempDir } from './helpers/cli.js';
import { readReport } from './helpers/report-fixture.js';

const dir = tempDir();
const input = join(dir, 'many.jsonl');
/** Writes the input once: 150,000 sessions of one call each. */
function many(): string {
  if (existsSync(input)) return input;
  const fd = openSync(input, 'w');
  for (let start = 0; start < 150_000; start += 10_000) {
    writeSync(fd, Array.from({ length: 10_000 }, (_, i) => `{"session":"s${start + i}","tool":"t"}\n`).join(''));
  }
  closeSync(fd);
  return input;
}

const report = join(dir, 'report.json');
const html = join(dir, 'report.html');
let manyRun: SpawnSyncReturns<string> | null = null;
/**
 * The scan of the 150,000 sessions in a 32 MB heap, once for the file: the JSON report and the HTML report
 * written by the same run (both in the one heap; two runs cost 16.5 CPU-s here, one 10.7).
 */
function scanMany(): SpawnSyncReturns<string> {
  manyRun ??= spawnSync(process.execPath, ['--max-old-space-size=32', CLI, 'scan', many(), '--workers', '0', '--max-sessions', '1000', '--json', '--output', report, '--html', html], { encoding: 'utf8', timeout: 120_000 });
  return manyRun;
}

describe('scan memory', () => {
  it('should scan 150,000 sessions in a 32 MB heap with --max-sessions 1000, listing every one', () => {
    const r = scanMany();
    expect(r.stderr).toBe(`loopwatch: HTML report written to ${html}\nloopwatch: 149,000 sessions were ended early to keep at most 1000 live (--max-sessions)\n`);
    expect(r.status).toBe(0);
    const doc = JSON.parse(readFileSync(report, 'utf8')) as { summary: { sessions: number; events: number }; sessions: { session: string }[] };
    expect(doc.summary).toMatchObject({ sessions: 150_000, events: 150_000 });
    expect(doc.sessions).toHaveLength(150_000);
    expect(new Set(doc.sessions.map((s) => s.session)).size).toBe(150_000);
  }, 120_000);

  it('should scan a Claude Code transcript larger than a 32 MB heap, holding its calls only until their results', () => {
    const dir = tempDir();
    const input = join(dir, 'big-session.jsonl');
    const fd = openSync(input, 'w');
    const calls = 60_000;
    for (let start = 0; start < calls; start += 1000) {
      const lines: string[] = [];
      for (let i = start; i < start + 1000; i++) {
        lines.push(JSON.stringify({ type: 'assistant', sessionId: 'big', uuid: `a${i}`, message: { id: `m${i}`, role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'Read', input: { file_path: `src/f${i}.ts` } }] } }));
        lines.push(JSON.stringify({ type: 'user', sessionId: 'big', uuid: `u${i}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `${'x'.repeat(200)}${i}` }] } }));
      }
      writeSync(fd, lines.join('\n') + '\n');
    }
    closeSync(fd);
    const report = join(dir, 'report.json');
    const r = spawnSync(process.execPath, ['--max-old-space-size=32', CLI, 'scan', input, '--workers', '0', '--json', '--output', report], { encoding: 'utf8', timeout: 120_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(readFileSync(report, 'utf8')).summary).toMatchObject({ sessions: 1, events: calls, skipped: 0 });
  }, 120_000);

  it('should write an HTML report of 150,000 sessions in a 32 MB heap, every one in its table', () => {
    const r = scanMany();
    expect(r.stderr).toContain(`HTML report written to ${html}`);
    expect(r.status).toBe(0);
    const { rows, doc } = readReport(html);
    expect(rows).toHaveLength(150_000);
    expect(doc.totals).toMatchObject({ sessions: 150_000, calls: 150_000 });
    expect(doc.timelines.items.length).toBe(doc.timelines.worst + doc.timelines.sampled);
  }, 120_000);
});
