/**
 * `loopwatch bench`: runs the benchmark suite (`bench/index.ts`, built beside the package's `src/`) in a
 * child process with the given options, so its figures are the ones `npm run bench` prints.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CommandIo } from './scan-command.js';
import { UsageError } from './usage-error.js';

/** `loopwatch bench [suite options]`: resolves to the suite's exit code. */
export async function benchCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const suite = fileURLToPath(new URL('../../bench/index.js', import.meta.url));
  if (!existsSync(suite)) throw new UsageError(`the benchmark suite is not built here (looked for ${suite}); run it from a checkout after npm run build`);
  return new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, [suite, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (b: Buffer) => io.stdout.write(b));
    child.stderr.on('data', (b: Buffer) => io.stderr.write(b));
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
}
