/**
 * A file named on the command line that is read whole (`--config`, `--labels`, `--token-file`, NATS
 * credentials and TLS files, an agent's settings file) is read only when it is a regular file of a bounded
 * size: a FIFO or a device in its place is an error naming the path, at once (before: each waited for ever
 * on a FIFO, and read `/dev/zero` until the memory ran out).
 */
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLabelFileBytes } from '../src/formats/label-file-bytes.js';
import { FileTooLargeError, NotAFileError, readBoundedFile } from '../src/formats/regular-file.js';
import { readSettings } from '../src/hooks/settings-file.js';
import { BearerToken } from '../src/serve/bearer-token.js';
import { CLI, writeJsonl } from './helpers/cli.js';
import { tempFolder } from './helpers/temp-folder.js';

/** Runs the CLI, killed after `ms`; code null when it had to be killed. */
function run(args: readonly string[], ms: number): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

function fifo(prefix: string): string {
  const path = join(tempFolder(prefix), 'named');
  execFileSync('mkfifo', [path]);
  return path;
}

describe('a named file that is a FIFO, a device or too big', () => {
  it('should be refused by the bounded reader itself', () => {
    const dir = tempFolder('named-reader');
    const big = join(dir, 'big');
    writeFileSync(big, Buffer.alloc(2000));
    expect(() => readBoundedFile('/dev/zero', 1000)).toThrow(NotAFileError);
    expect(() => readBoundedFile(fifo('named-fifo'), 1000)).toThrow(NotAFileError);
    expect(() => readBoundedFile(big, 1000)).toThrow(FileTooLargeError);
    expect(readBoundedFile(big, 2000).length).toBe(2000);
    expect(() => readLabelFileBytes(fifo('named-labels'))).toThrow(/not a regular file \(a FIFO\)/);
    expect(() => BearerToken.fromFile(fifo('named-token'))).toThrow(/--token-file .*: cannot read the file \(not a regular file \(a FIFO\)\)/);
    expect(() => BearerToken.fromFile('/dev/zero')).toThrow(/not a regular file \(a device\)/);
    expect(() => readSettings(fifo('named-settings'))).toThrow(/cannot be read \(not a regular file \(a FIFO\)\)/);
  });

  it('should refuse a token file over 1 MiB as the other secret files are, and read one under it whole', () => {
    // before (hostile5), BearerToken read the first 1 MiB itself and took the token of a 2 MiB file
    const dir = tempFolder('named-token-size');
    const token = 'tok-0123456789abcdef';
    const big = join(dir, 'big-token');
    writeFileSync(big, `${token}\n${'#'.repeat(2 * 1024 * 1024)}\n`, { mode: 0o600 });
    expect(() => BearerToken.fromFile(big)).toThrow(/--token-file .*big-token: cannot read the file \(the file is over the limit of 1048576 bytes\)/);
    const last = join(dir, 'token-at-limit');
    writeFileSync(last, `${token}\n${'#'.repeat(1024 * 1024 - token.length - 2)}\n`, { mode: 0o600 });
    expect(BearerToken.fromFile(last).accepts(`Bearer ${token}`)).toBe(true);
  });

  it('should end scan --config, eval --labels and serve --token-file at once with the path named, exit 2', async () => {
    const dir = tempFolder('named-cli');
    writeJsonl(dir, 'run.jsonl', Array.from({ length: 8 }, (_, step) => ({ session: 's', step, tool: 'bash', args: { cmd: 'ls' } })));
    const run1 = join(dir, 'run.jsonl');
    const pipe = fifo('named-cli-fifo');
    const runs = await Promise.all([
      run(['scan', run1, '--config', pipe, '--no-progress'], 20_000),
      run(['scan', run1, '--config', '/dev/zero', '--no-progress'], 20_000),
      run(['eval', run1, '--labels', pipe, '--workers', '0'], 20_000),
      run(['serve', '--token-file', pipe, '--port', '0'], 20_000),
    ]);
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/not a regular file \((a FIFO|a device)\)/);
    }
    expect(runs[0]!.stderr).toContain(`--config ${pipe}`);
    expect(runs[3]!.stderr).toContain(`--token-file ${pipe}`);
  });
});
