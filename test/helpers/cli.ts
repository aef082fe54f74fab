/**
 * Runs the built CLI as a subprocess: the bundled command the package's `bin` names
 * (`dist/src/bin/loopwatch.js`, made by `npm test`'s build), as a user runs it.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { tempFolder } from './temp-folder.js';

/** The CLI's entry point: the bundled command. */
export const CLI = fileURLToPath(new URL('../../dist/src/bin/loopwatch.js', import.meta.url));

/**
 * The hook's own entry (`dist/hook/hook-main.cjs`): `loopwatch hook` without the CLI around it, the command
 * `loopwatch hook install` writes into the agents' settings, so what an agent runs on every tool call.
 */
export const HOOK_MAIN = fileURLToPath(new URL('../../dist/hook/hook-main.cjs', import.meta.url));

/** The same command as modules, as tsc built them (`dist/src/cli/main.js`). */
export const CLI_MODULES = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

/** What a run printed and returned. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `loopwatch ...args` (with `input` on stdin, if given); `loopwatchInProcess` (cli-in-process.ts) runs it without a process. */
export function loopwatch(args: readonly string[], input?: string): CliRun {
  const r = spawnSync(process.execPath, [CLI, ...args], { input: input ?? '', encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A fresh temporary folder. */
export function tempDir(): string {
  return tempFolder('cli');
}

/** Writes `lines` as JSON Lines (`.gz` names are gzipped) and returns the path. */
export function writeJsonl(dir: string, name: string, lines: readonly unknown[]): string {
  const path = join(dir, name);
  const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
  writeFileSync(path, name.endsWith('.gz') ? gzipSync(text) : text);
  return path;
}

/** The verdict lines of a `--jsonl` run, parsed. */
export function verdictLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
