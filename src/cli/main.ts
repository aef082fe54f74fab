#!/usr/bin/env node
/**
 * The `loopwatch` command: `scan`, `explain`, `demo`, `bench`, `serve`, `mcp`, `hook`, `eval`, `calibrate`, `--help`, `--version`. Usage errors go to
 * stderr in one line with exit code 2; a failure of loopwatch itself in one line with exit code 3 (never 1,
 * which means loops were found); everything else is each command's own. A reader that closes standard
 * output or standard error early (`| head`) stops that output, not the run: the exit code still covers
 * every input.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { closestName } from '../options/checks.js';
import type { CommandIo } from './scan-command.js';
import { processContext } from './command-context.js';
import { shownMessage } from '../text/shown-message.js';
import { UsageError } from './usage-error.js';
import { OutputWriteError } from './render/output-file.js';
import { version } from './version.js';

export { shownMessage, version };

/** Whether the benchmark suite is built beside this package (a checkout; an installed package has none). */
const HAS_BENCH = existsSync(fileURLToPath(new URL('../../bench/index.js', import.meta.url)));

/** A command: its help text and its run, each loaded when used (a hook process loads only the hook). */
interface Command {
  help(): Promise<string>;
  run(args: readonly string[], io: CommandIo): Promise<number>;
}

type HelpName = 'SCAN_HELP' | 'EXPLAIN_HELP' | 'DEMO_HELP' | 'SERVE_HELP' | 'MCP_HELP' | 'HOOK_HELP' | 'EVAL_HELP' | 'CALIBRATE_HELP' | 'BENCH_HELP';

async function helpText(name: HelpName): Promise<string> {
  return (await import('./help-text.js'))[name];
}

/**
 * `loopwatch hook`: run from the single-file bundle `npm run build` makes of it, with V8's code cache
 * (hook-loader.ts; far faster to start: see docs/hooks.md, Speed), else from the modules themselves.
 */
async function hookCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const [{ runHookBundle }, { streamHookIo }] = await Promise.all([import('./hook-loader.js'), import('./hook-io.js')]);
  const hookIo = streamHookIo(io);
  const code = await runHookBundle(fileURLToPath(new URL('../../hook/hook.cjs', import.meta.url)), args, hookIo);
  return code ?? (await import('./hook-command.js')).hookCommand(args, hookIo);
}

const COMMANDS: Readonly<Record<string, Command>> = {
  scan: { help: () => helpText('SCAN_HELP'), run: async (a, io) => (await import('./scan-command.js')).scanCommand(a, io) },
  explain: { help: () => helpText('EXPLAIN_HELP'), run: async (a, io) => (await import('./explain-command.js')).explainCommand(a, io) },
  demo: { help: () => helpText('DEMO_HELP'), run: async (a, io) => (await import('./demo-command.js')).demoCommand(a, io) },
  serve: { help: () => helpText('SERVE_HELP'), run: async (a, io) => (await import('./serve-command.js')).serveCommand(a, io) },
  mcp: { help: () => helpText('MCP_HELP'), run: async (a, io) => (await import('./mcp-command.js')).mcpCommand(a, io) },
  hook: { help: () => helpText('HOOK_HELP'), run: hookCommand },
  eval: { help: () => helpText('EVAL_HELP'), run: async (a, io) => (await import('./eval-command.js')).evalCommand(a, io) },
  calibrate: { help: () => helpText('CALIBRATE_HELP'), run: async (a, io) => (await import('./calibrate-command.js')).calibrateCommand(a, io) },
  ...(HAS_BENCH ? { bench: { help: () => helpText('BENCH_HELP'), run: async (a: readonly string[], io: CommandIo) => (await import('./bench-command.js')).benchCommand(a, io) } } : {}),
};

/** Runs the CLI with `argv` (without node and the script); resolves to the exit code. */
export async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    io.stdout.write((await import('./help-text.js')).mainHelp(HAS_BENCH));
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
    io.stderr.write(`loopwatch: unknown ${first.startsWith('-') ? 'flag' : 'command'} "${shownMessage(first)}" (${hint}commands: ${Object.keys(COMMANDS).join(', ')}; see loopwatch --help)\n`);
    return 2;
  }
  // after --, arguments are another program's (loopwatch mcp -- server --help)
  const own = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (own.includes('-h') || own.includes('--help')) {
    io.stdout.write(await command.help());
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`loopwatch ${first}: ${shownMessage(e.message)} (see loopwatch ${first} --help)\n`);
      return 2;
    }
    if (e instanceof OutputWriteError) {
      io.stderr.write(`loopwatch ${first}: ${shownMessage(e.message)}; exit code 2\n`);
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
  return `loopwatch ${command}: internal error: ${shownMessage(detail.split('\n')[0] as string)} (a bug in loopwatch; LOOPWATCH_DEBUG=1 prints the stack)\n${stack}`;
}

/**
 * Keeps a stream whose reader went away (EPIPE) from ending the run; `onClose` hears of it once. Another
 * error goes to `onFailure` (the default: thrown, an internal error).
 */
function survivePipeClose(stream: NodeJS.WritableStream, onClose: () => void, onFailure = (e: NodeJS.ErrnoException): void => {
  throw e;
}): void {
  let told = false;
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') return onFailure(e);
    if (!told) onClose();
    told = true;
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === (await import('node:fs')).realpathSync(process.argv[1])) {
  const command = process.argv[2] ?? '';
  survivePipeClose(process.stderr, () => undefined);
  // mcp: a closed stdout is the client going away, which the proxy handles itself
  survivePipeClose(
    process.stdout,
    () => {
      if (command !== 'mcp') process.stderr.write('loopwatch: standard output was closed; the rest of the output is dropped, the run goes on for its exit code\n');
    },
    // a full disk (ENOSPC) or a failing device under `> file`: the output is lost, said as such, not as a bug
    (e) => {
      process.stderr.write(`loopwatch ${shownMessage(command)}: standard output could not be written (${shownMessage(e.code ?? e.message)}); the output is lost, exit code 2\n`);
      process.exit(2);
    },
  );
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
  const code = await main(process.argv.slice(2), { ...processContext(), stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, onInterrupt });
  process.exitCode = code;
  // an interrupted scan may have left a read of standard input waiting: let the process end
  if (code === 130) process.stdin.destroy();
}
