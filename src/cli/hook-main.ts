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

const here = dirname(realpathSync(process.argv[1] ?? '.'));
runHookBundle(join(here, 'hook.cjs'), process.argv.slice(2), fdHookIo()).then(
  (code) => {
    if (code === null) process.stderr.write(`loopwatch hook: ${join(here, 'hook.cjs')} is missing (a broken install?); the call is allowed without a loop check\n`);
    process.exitCode = code ?? 1;
  },
  (e: unknown) => {
    process.stderr.write(`loopwatch hook: internal error: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}; the call is allowed without a loop check\n`);
    process.exitCode = 1;
  },
);
