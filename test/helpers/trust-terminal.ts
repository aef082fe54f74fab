/**
 * Runs `loopwatch hook trust` as a person does: its stdin a terminal (a pty made by util-linux's `script`),
 * its stdout and stderr read back from files. `launcher`: the path `script` is run as (a link named as an
 * agent's program makes the pty an agent's, as Codex's and Gemini CLI's are).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, type CliRun } from './cli.js';
import { tempFolder } from './temp-folder.js';

/** `text` quoted for sh. */
const quoted = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** `loopwatch hook trust ...args` with a terminal on stdin, in `cwd`. */
export function trustInTerminal(args: readonly string[], env: NodeJS.ProcessEnv = process.env, cwd?: string, launcher = 'script'): Promise<CliRun> {
  const dir = tempFolder('trust-tty');
  const out = join(dir, 'out');
  const err = join(dir, 'err');
  const command = `${[process.execPath, CLI, 'hook', 'trust', ...args].map(quoted).join(' ')} >${quoted(out)} 2>${quoted(err)}`;
  return new Promise((resolve, reject) => {
    const child = spawn(launcher, ['-qec', command, '/dev/null'], { env, cwd, stdio: ['pipe', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: readFileSync(out, 'utf8'), stderr: readFileSync(err, 'utf8') }));
    child.stdin.end();
  });
}
