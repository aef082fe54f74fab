/**
 * `scan --markdown PATH`, spaced: PATH is the file to write when its name ends in .md or .markdown, a path
 * to scan when it is a folder or a trace file, and otherwise refused, naming `--markdown=PATH` (it cannot
 * be scanned, or hardly: surely meant for the summary). Before, `--markdown summary.txt runs/` scanned
 * summary.txt (a missing input, or a file read as a trace) and printed the Markdown on standard output,
 * while `--markdown=summary.txt` wrote it. Through the CLI's `main` (its argument parsing, as the command runs it).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

const CALLS = Array.from({ length: 3 }, () => ({ session: 's', tool: 'Bash', args: { command: 'make' }, error: 'Exit code 2' }));

describe('scan --markdown with a spaced value', () => {
  it('should refuse a path that does not exist, naming --markdown=PATH, and write nothing', async () => {
    const dir = tempDir();
    writeJsonl(dir, 'run.jsonl', CALLS);
    const out = join(dir, 'summary.txt');
    const r = await loopwatchInProcess(['scan', '--no-progress', '--markdown', out, dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--markdown ${out}: there is no such file or folder to scan; write --markdown=${out} to write the Markdown summary into it`);
    expect(r.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
  });

  it('should refuse a file that is not a trace file, and leave it as it was', async () => {
    const dir = tempDir();
    writeJsonl(dir, 'run.jsonl', CALLS);
    const out = join(dir, 'summary.txt');
    writeFileSync(out, 'last week\n');
    const r = await loopwatchInProcess(['scan', '--no-progress', '--markdown', out, dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--markdown ${out}: a path after --markdown is one to scan, and ${out} is not a folder or a trace file`);
    expect(readFileSync(out, 'utf8')).toBe('last week\n');
  });

  it('should still scan a folder or a trace file after --markdown, and write a .md name', async () => {
    const dir = tempDir();
    const trace = writeJsonl(dir, 'run.jsonl', CALLS);
    for (const path of [dir, trace]) {
      const r = await loopwatchInProcess(['scan', '--no-progress', '--markdown', path]);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('| ');
    }
    const md = join(dir, 'out.md');
    const r = await loopwatchInProcess(['scan', '--no-progress', '--markdown', md, trace]);
    expect(r.stderr).toBe('');
    expect(readFileSync(md, 'utf8')).toContain('| ');
    const eq = join(dir, 'summary.txt');
    expect((await loopwatchInProcess(['scan', '--no-progress', `--markdown=${eq}`, trace])).stderr).toBe('');
    expect(readFileSync(eq, 'utf8')).toContain('| ');
  });
});
