#!/usr/bin/env node
/**
 * The `loopwatch` command: `scan`, `explain`, `demo`, `bench`, `serve`, `eval`, `--help`, `--version`. Usage errors go to
 * stderr in one line with exit code 2; a failure of loopwatch itself in one line with exit code 3 (never 1,
 * which means loops were found); everything else is each command's own. A reader that closes standard
 * output or standard error early (`| head`) stops that output, not the run: the exit code still covers
 * every input.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { closestName } from '../options/checks.js';
import { benchCommand } from './bench-command.js';
import { demoCommand } from './demo-command.js';
import { evalCommand } from './eval-command.js';
import { explainCommand } from './explain-command.js';
import { BENCH_HELP, DEMO_HELP, EVAL_HELP, EXPLAIN_HELP, SCAN_HELP, SERVE_HELP, mainHelp } from './help-text.js';
import { type CommandIo, scanCommand } from './scan-command.js';
import { serveCommand } from './serve-command.js';
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

/** Whether the benchmark suite is built beside this package (a checkout; an installed package has none). */
const HAS_BENCH = existsSync(fileURLToPath(new URL('../../bench/index.js', import.meta.url)));

const COMMANDS: Readonly<Record<string, { help: string; run: (args: readonly string[], io: CommandIo) => Promise<number> }>> = {
  scan: { help: SCAN_HELP, run: scanCommand },
  explain: { help: EXPLAIN_HELP, run: explainCommand },
  demo: { help: DEMO_HELP, run: demoCommand },
  serve: { help: SERVE_HELP, run: serveCommand },
  eval: { help: EVAL_HELP, run: evalCommand },
  ...(HAS_BENCH ? { bench: { help: BENCH_HELP, run: benchCommand } } : {}),
};

/** Runs the CLI with `argv` (without node and the script); resolves to the exit code. */
export async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    io.stdout.write(mainHelp(HAS_BENCH));
    return first === undefined ? 2 : 0;
  }
  if (first === '-v' || first === '--version') {
    io.stdout.write(`${version()}\n`);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
  if (command === undefined && first === 'bench') {
    io.stderr.write('loopwatch: bench runs the benchmark suite, which an installed package does not ship; run npm run bench in a checkout\n');
    return 2;
  }
  if (command === undefined) {
    const best = closestName(first.replace(/^-+/, ''), Object.keys(COMMANDS));
    const hint = best === undefined ? '' : `did you mean ${best}? `;
    io.stderr.write(`loopwatch: unknown ${first.startsWith('-') ? 'flag' : 'command'} "${first}" (${hint}commands: ${Object.keys(COMMANDS).join(', ')}; see loopwatch --help)\n`);
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
      io.stderr.write(`loopwatch ${first}: ${e.message} (see loopwatch ${first} --help)\n`);
      return 2;
    }
    io.stderr.write(internalError(first, e));
    return INTERNAL_ERROR;
  }
}

/** Exit code of a failure of loopwatch itself. */
export const INTERNAL_ERROR = 3;

/** The one-line report of an unexpected error (the stack only with LOOPWATCH_DEBUG set). */
export function internalError(command: string, e: unknown): string {
  const detail = e instanceof Error ? `${e.name === 'Error' ? '' : `${e.name}: `}${e.message}` : String(e);
  const stack = process.env.LOOPWATCH_DEBUG !== undefined && e instanceof Error ? `${e.stack}\n` : '';
  return `loopwatch ${command}: internal error: ${detail.split('\n')[0]} (a bug in loopwatch; LOOPWATCH_DEBUG=1 prints the stack)\n${stack}`;
}

/** Keeps a stream whose reader went away (EPIPE) from ending the run; `onClose` hears of it once. */
function survivePipeClose(stream: NodeJS.WritableStream, onClose: () => void): void {
  let told = false;
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
    if (!told) onClose();
    told = true;
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === (await import('node:fs')).realpathSync(process.argv[1])) {
  const command = process.argv[2] ?? '';
  survivePipeClose(process.stderr, () => undefined);
  survivePipeClose(process.stdout, () => process.stderr.write('loopwatch: standard output was closed; the rest of the output is dropped, the run goes on for its exit code\n'));
  process.on('uncaughtException', (e) => {
    process.stderr.write(internalError(command, e));
    process.exit(INTERNAL_ERROR);
  });
  const onInterrupt = (stop: () => void): (() => void) => {
    let asked = false;
    const handler = (): void => {
      if (asked) process.exit(130); // the second Ctrl-C quits at once
      asked = true;
      stop();
    };
    process.on('SIGINT', handler);
    return () => process.off('SIGINT', handler);
  };
  const code = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, onInterrupt });
  process.exitCode = code;
  // an interrupted scan may have left a read of standard input waiting: let the process end
  if (code === 130) process.stdin.destroy();
}
