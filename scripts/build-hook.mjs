#!/usr/bin/env node
// Builds what a hook process loads (see src/cli/hook-loader.ts and docs/hooks.md, Speed):
//   dist/src/cli/hook-command.js (tsc's ESM)  -> dist/hook/hook.cjs       the hook command as one CommonJS file
//                                                                         (rolldown, compressed; node:* stays external),
//                                                                         compiled with V8's code cache at run time
//   dist/src/cli/hook-main.js                 -> dist/hook/hook-main.cjs  the hook's own entry, which the agents'
//                                                                         settings run (hook install writes it)
// `loopwatch hook` (dist/src/cli/main.js) runs the same bundle. Run by `npm run build`.
import { rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'hook');
rmSync(out, { recursive: true, force: true });
for (const [input, file] of [
  ['hook-command.js', 'hook.cjs'],
  ['hook-main.js', 'hook-main.cjs'],
]) {
  await build({
    input: join(root, 'dist', 'src', 'cli', input),
    platform: 'node',
    external: [/^node:/],
    logLevel: 'warn',
    // compressed with names kept (stack traces stay readable): a smaller file reads and checks faster
    output: { format: 'cjs', file: join(out, file), codeSplitting: false, sourcemap: false, minify: { mangle: false, compress: true } },
    write: true,
  });
}
if (process.argv.includes('--verbose') || process.env.LOOPWATCH_VERBOSE === '1') {
  process.stderr.write(`loopwatch: built dist/hook/hook.cjs (${statSync(join(out, 'hook.cjs')).size} bytes) and hook-main.cjs\n`);
}
