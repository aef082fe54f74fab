/**
 * Runs an ES module script in a child Node process, killed after `timeoutMs`: for a test whose subject,
 * before its fix, never ended inside one synchronous call (which no vitest timeout can interrupt in process).
 */
import { spawn } from 'node:child_process';

/** How a child run ended: its exit code (null when killed), whether the timeout killed it, its output. */
export interface ChildRun {
  readonly code: number | null;
  readonly killed: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `script` (ESM source) with `node --input-type=module`, killing it with SIGKILL after `timeoutMs`. */
export function runChildScript(script: string, timeoutMs: number): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, killed, stdout, stderr });
    });
  });
}
