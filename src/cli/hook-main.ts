/**
 * The hook's own entry: `node <package>/dist/hook/hook-main.cjs [hook options]` is `loopwatch hook [hook
 * options]` without the CLI around it (no command dispatch, no ES module loader: a CommonJS script that
 * loads the bundle beside it with the code cache, see hook-loader.ts). `loopwatch hook install` writes this
 * command into the agents' settings. Built into dist/hook/hook-main.cjs by scripts/build-hook.mjs.
 */
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fdHookIo } from './hook-io.js';
import { runHookBundle } from './hook-loader.js';
import { shownMessage } from '../text/shown-message.js';

/**
 * An error's first line as the bootstrap prints it: redacted and terminal-safe (shownMessage), since an
 * error thrown from the hook command may quote the agent's payload; never a throw (a thrown value whose
 * `toString` throws is said to be one).
 */
function errorLine(e: unknown): string {
  try {
    return shownMessage(e instanceof Error ? String(e.message).split('\n')[0] ?? '' : String(e));
  } catch {
    return 'a value that cannot be printed';
  }
}

const here = dirname(realpathSync(process.argv[1] ?? '.'));
runHookBundle(join(here, 'hook.cjs'), process.argv.slice(2), fdHookIo()).then(
  (code) => {
    if (code === null) process.stderr.write(`loopwatch hook: ${join(here, 'hook.cjs')} is missing (a broken install?); the call is allowed without a loop check\n`);
    process.exitCode = code ?? 1;
  },
  (e: unknown) => {
    process.stderr.write(`loopwatch hook: internal error: ${errorLine(e)}; the call is allowed without a loop check\n`);
    process.exitCode = 1;
  },
);
