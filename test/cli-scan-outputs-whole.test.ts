/**
 * `scan --output`, `--html` and `--markdown=FILE` written whole or not at all, as `--metrics` is
 * (cli/render/pending-output.ts, files/replace-whole.ts): while the scan runs each file of one's own keeps its
 * old bytes (the report goes into `.<name>.<pid>.tmp` beside it); a scan killed by SIGTERM or SIGHUP leaves
 * the old files, or none where there were none; a scan that ends renames a whole new file over each, with the
 * old mode. A run killed by SIGKILL leaves its `.tmp`; the next scan writing the same file removes it, and
 * never a live process's, a link, or another user's. Through the real CLI, spawned and killed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from './helpers/cli.js';
import { tempFolder } from './helpers/temp-folder.js';

const CALL = `${JSON.stringify({ session: 's', tool: 'Bash', args: { command: 'make' }, error: 'Exit code 2' })}\n`;

/** The three streamed reports of a scan in `dir`, and the flags naming them. */
function reports(dir: string): { files: string[]; args: string[] } {
  const [out, html, md] = ['report.jsonl', 'report.html', 'summary.md'].map((n) => join(dir, n)) as [string, string, string];
  return { files: [out, html, md], args: ['--jsonl', '-o', out, '--html', html, `--markdown=${md}`] };
}

/** `loopwatch scan - ...args`, its standard input left open with one call. */
function scanning(args: readonly string[]): { child: ChildProcess; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> } {
  const child = spawn(process.execPath, [CLI, 'scan', '-', '--no-progress', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stdout?.resume();
  child.stderr?.on('data', (b: Buffer) => (stderr += b.toString()));
  child.stdin?.on('error', () => undefined);
  child.stdin?.write(CALL);
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    }),
  );
  return { child, done };
}

/** Resolves once `.<name>.<pid>.tmp` of each file is there (the reports have begun), or throws after 30 s. */
async function begun(files: readonly string[], pid: number): Promise<void> {
  const temps = files.map((f) => join(f, '..', `.${f.split('/').pop() as string}.${pid}.tmp`));
  for (const deadline = Date.now() + 30_000; !temps.every((t) => existsSync(t)); ) {
    if (Date.now() > deadline) throw new Error(`the reports never began: ${temps.filter((t) => !existsSync(t)).join(', ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('scan --output, --html, --markdown written whole', () => {
  it('should keep each existing report as it was while the scan runs and when it is killed', { timeout: 120_000 }, async () => {
    for (const sig of ['SIGTERM', 'SIGHUP'] as const) {
      const dir = tempFolder('scan-outputs-whole');
      const { files, args } = reports(dir);
      for (const f of files) writeFileSync(f, `last good ${f}\n`);
      const run = scanning(args);
      await begun(files, run.child.pid as number);
      // a reader mid-scan reads the last whole report
      for (const f of files) expect(readFileSync(f, 'utf8'), `${sig} ${f}`).toBe(`last good ${f}\n`);
      run.child.kill(sig);
      const r = await run.done;
      expect(r.signal, sig).toBe(sig);
      for (const f of files) expect(readFileSync(f, 'utf8'), `${sig} ${f}`).toBe(`last good ${f}\n`);
      expect(readdirSync(dir).sort(), sig).toEqual(['report.html', 'report.jsonl', 'summary.md']);
    }
  });

  it('should leave no report it made when killed', { timeout: 60_000 }, async () => {
    const dir = tempFolder('scan-outputs-whole');
    const { files, args } = reports(dir);
    const run = scanning(args);
    await begun(files, run.child.pid as number);
    run.child.kill('SIGTERM');
    expect((await run.done).signal).toBe('SIGTERM');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('should rename a whole new report over each old one at the end, with the old mode', { timeout: 60_000 }, async () => {
    const dir = tempFolder('scan-outputs-whole');
    const { files, args } = reports(dir);
    for (const f of files) writeFileSync(f, 'old\n');
    chmodSync(files[0] as string, 0o640);
    const before = files.map((f) => statSync(f).ino);
    const run = scanning(args);
    await begun(files, run.child.pid as number);
    run.child.stdin?.end();
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    // a new file took each name (a reader holding the old one read it whole), the old mode kept
    files.forEach((f, i) => expect(statSync(f).ino, f).not.toBe(before[i]));
    expect(statSync(files[0] as string).mode & 0o777).toBe(0o640);
    expect(readFileSync(files[1] as string, 'utf8')).toMatch(/^<!doctype html>/i);
    expect(readFileSync(files[2] as string, 'utf8')).toContain('|');
    expect(readdirSync(dir).sort()).toEqual(['report.html', 'report.jsonl', 'summary.md']);
  });

  it('should remove the .tmp a SIGKILLed scan left once the same report is written again, and nothing else', { timeout: 120_000 }, async () => {
    const dir = tempFolder('scan-outputs-whole');
    const { files, args } = reports(dir);
    const killed = scanning(args);
    const dead = killed.child.pid as number;
    await begun(files, dead);
    killed.child.kill('SIGKILL');
    await killed.done;
    const left = files.map((f) => join(dir, `.${f.split('/').pop() as string}.${dead}.tmp`));
    for (const t of left) expect(existsSync(t), t).toBe(true); // nothing can remove them as the process dies
    // beside them: a live process's (this one's), a link under a dead pid's name, another user's when root
    const live = join(dir, `.report.jsonl.${process.pid}.tmp`);
    writeFileSync(live, 'being written\n');
    const target = join(dir, 'kept-target');
    writeFileSync(target, 'kept\n');
    const link = join(dir, `.report.html.${dead + 1_000_000}.tmp`);
    symlinkSync(target, link);
    const others = join(dir, `.summary.md.${dead + 2_000_000}.tmp`);
    writeFileSync(others, 'theirs\n');
    const root = process.getuid?.() === 0;
    if (root) chownSync(others, 12345, 12345);
    const run = scanning(args);
    run.child.stdin?.end();
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    for (const t of left) expect(existsSync(t), t).toBe(false);
    expect(readFileSync(live, 'utf8')).toBe('being written\n');
    expect(readFileSync(link, 'utf8')).toBe('kept\n');
    expect(readFileSync(target, 'utf8')).toBe('kept\n');
    // another user's stays (as root it is made so; else it is this user's, of a dead pid, and goes)
    expect(existsSync(others)).toBe(root);
  });
});
