#!/usr/bin/env node
/**
 * The `loopwatch` command: `scan`, `explain`, `demo`, `bench`, `--help`, `--version`. Usage errors go to
 * stderr with exit code 2; everything else is each command's own.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchCommand } from './bench-command.js';
import { demoCommand } from './demo-command.js';
import { explainCommand } from './explain-command.js';
import { BENCH_HELP, DEMO_HELP, EXPLAIN_HELP, MAIN_HELP, SCAN_HELP } from './help-text.js';
import { type CommandIo, scanCommand } from './scan-command.js';
import { UsageError } from './usage-error.js';

/** The package version, from package.json. */
export function version(): string {
  for (const up of ['../../../package.json', '../../package.json']) {
    try {
      return (JSON.parse(readFileSync(fileURLToPath(new URL(up, import.meta.url)), 'utf8')) as { version: string }).version;
    } catch {
      // not at this depth
    }
  }
  return 'unknown';
}

const COMMANDS: Readonly<Record<string, { help: string; run: (args: readonly string[], io: CommandIo) => Promise<number> }>> = {
  scan: { help: SCAN_HELP, run: scanCommand },
  explain: { help: EXPLAIN_HELP, run: explainCommand },
  demo: { help: DEMO_HELP, run: demoCommand },
  bench: { help: BENCH_HELP, run: benchCommand },
};

/** Runs the CLI with `argv` (without node and the script); resolves to the exit code. */
export async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    io.stdout.write(MAIN_HELP);
    return first === undefined ? 2 : 0;
  }
  if (first === '-v' || first === '--version') {
    io.stdout.write(`${version()}\n`);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
  if (command === undefined) {
    io.stderr.write(`loopwatch: unknown command "${first}" (commands: ${Object.keys(COMMANDS).join(', ')}; see loopwatch --help)\n`);
    return 2;
  }
  if (rest.includes('-h') || rest.includes('--help')) {
    io.stdout.write(command.help);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`loopwatch ${first}: ${e.message}\n(see loopwatch ${first} --help)\n`);
      return 2;
    }
    throw e;
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === (await import('node:fs')).realpathSync(process.argv[1])) {
  // a reader that stops early (`loopwatch scan --jsonl | head`) ends the run quietly
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  const code = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
  process.exitCode = code;
}
