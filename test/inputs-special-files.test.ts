/**
 * An input path that is not a regular file is never opened for reading: a device (`/dev/zero`) or a
 * symbolic link to one given as a path, and a FIFO, socket, device or link to one met inside a scanned
 * folder, is a `not-a-file` issue naming the path; the other inputs are still read and the exit code is 2
 * (before: `loopwatch scan /dev/zero` read for ever). A symbolic link loop inside a folder ends the walk's
 * look at it with a named issue. The readers refuse such a path at open time too (a file swapped for a
 * FIFO after the folder walk looked at it). A FIFO named on the command line (`<(zcat runs.gz)`) is a
 * stream the user chose, as `-` is: it is read.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInputs } from '../src/formats/read-inputs.js';
import { readInput } from '../src/formats/read-input.js';
import type { TraceItem } from '../src/formats/trace-record.js';
import { CLI, writeJsonl } from './helpers/cli.js';
import { tempFolder } from './helpers/temp-folder.js';

/** Runs the CLI, killed after `ms`; code null when it had to be killed. */
function run(args: readonly string[], ms: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A folder holding one looping run (`run.jsonl`, 8 calls of session `s`). */
function withRun(prefix: string): string {
  const dir = tempFolder(prefix);
  writeJsonl(dir, 'run.jsonl', Array.from({ length: 8 }, (_, step) => ({ session: 's', step, tool: 'bash', args: { cmd: 'ls' } })));
  return dir;
}

async function items(gen: AsyncIterable<TraceItem>): Promise<TraceItem[]> {
  const out: TraceItem[] = [];
  for await (const i of gen) out.push(i);
  return out;
}

const PLANTS: Record<string, (path: string) => void> = {
  '/dev/zero itself': () => undefined,
  'a link to /dev/zero': (path) => symlinkSync('/dev/zero', path),
};

describe('an input path that is not a regular file', () => {
  for (const [what, plant] of Object.entries(PLANTS)) {
    it(`should be refused by name when it is ${what}, the other inputs scanned, exit code 2`, async () => {
      const dir = withRun('special-input');
      const path = what === '/dev/zero itself' ? '/dev/zero' : join(dir, 'x.jsonl');
      plant(path);
      const r = await run(['scan', path, join(dir, 'run.jsonl'), '--workers', '0', '--no-progress', '--jsonl'], 20_000);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${path}: skipped (not-a-file)`);
      expect(r.stderr).toMatch(/not a regular file \(a device\); not read/);
      expect(r.stdout.split('\n').filter((l) => l.includes('"session":"s"')).length).toBeGreaterThan(0); // run.jsonl was read
    });
  }

  for (const how of ['itself', 'through a link']) {
    it(`should read a FIFO named on the command line (${how}) as a stream, as <(zcat runs.gz) gives one`, async () => {
      const dir = withRun('special-input-fifo');
      const fifo = join(dir, 'stream.fifo');
      execFileSync('mkfifo', [fifo]);
      const path = how === 'itself' ? fifo : join(dir, 'link.jsonl');
      if (how !== 'itself') symlinkSync(fifo, path);
      // a writer, as the shell's process substitution is: the run's lines written into the FIFO
      const writer = spawn('sh', ['-c', `cat "${join(dir, 'run.jsonl')}" > "${fifo}"`], { stdio: 'ignore' });
      const r = await run(['scan', path, '--workers', '0', '--no-progress', '--jsonl'], 20_000);
      writer.kill();
      expect(r.code, r.stderr).toBe(1); // the run loops: found, nothing skipped
      expect(r.stderr).not.toContain('not-a-file');
      expect(r.stdout.split('\n').filter((l) => l.includes('"session":"s"')).length).toBeGreaterThan(0);
    });
  }

  it('should be refused by explain and eval too, which finish', async () => {
    const dir = withRun('special-input-cmds');
    const [explain, evaluated] = await Promise.all([run(['explain', 's', '/dev/zero', join(dir, 'run.jsonl')], 20_000), run(['eval', '/dev/zero', '--workers', '0'], 20_000)]);
    expect(explain.code, explain.stderr).not.toBeNull();
    expect(explain.stderr).toContain('/dev/zero: skipped (not-a-file)');
    expect(evaluated.code, evaluated.stderr).not.toBeNull();
    expect(evaluated.code).not.toBe(0);
  });

  it('should be refused inside a folder: a FIFO, a socket, links to a device and a folder, a link loop; the rest read', async () => {
    const dir = withRun('special-folder');
    execFileSync('mkfifo', [join(dir, 'fifo.jsonl')]);
    symlinkSync('/dev/zero', join(dir, 'zero.jsonl'));
    symlinkSync('loop-b.jsonl', join(dir, 'loop-a.jsonl'));
    symlinkSync('loop-a.jsonl', join(dir, 'loop-b.jsonl'));
    mkdirSync(join(dir, 'sub'));
    symlinkSync('..', join(dir, 'sub', 'up.jsonl')); // a link back up: a cycle if followed
    symlinkSync('..', join(dir, 'sub', 'up'));
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(dir, 'sock.jsonl'), resolve));
    try {
      const r = await run(['scan', dir, '--workers', '0', '--no-progress', '--jsonl'], 20_000);
      expect(r.code, r.stderr).toBe(2);
      for (const name of ['fifo.jsonl', 'zero.jsonl', 'sock.jsonl', 'sub/up.jsonl']) expect(r.stderr).toContain(`${join(dir, name)}: skipped (not-a-file)`);
      for (const name of ['loop-a.jsonl', 'loop-b.jsonl']) expect(r.stderr).toMatch(new RegExp(`${join(dir, name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: skipped \\(read-error\\): cannot follow the link: ELOOP`));
      expect(r.stdout).toContain('"session":"s"');
    } finally {
      server.close();
    }
  });

  it('should be refused when the readers are handed it directly (swapped in after a walk looked): a not-a-file issue, no wait', async () => {
    const dir = tempFolder('special-direct');
    const fifo = join(dir, 'late.jsonl');
    execFileSync('mkfifo', [fifo]);
    for (const path of ['/dev/zero', fifo]) {
      const got = await items(readInput(path, { file: path, name: 'x' }, { maxLineBytes: 1 << 20 }));
      expect(got.map((i) => i.kind)).toEqual(['issue', 'input-end']);
      expect(got[0]).toMatchObject({ code: 'not-a-file', file: path });
    }
    // listed, a device is refused before any open (a FIFO named there is a stream the user chose: read)
    const all = await items(readInputs(['/dev/zero']));
    expect(all.filter((i) => i.kind === 'issue').map((i) => (i as { code: string }).code)).toEqual(['not-a-file']);
  });
});
