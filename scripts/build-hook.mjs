#!/usr/bin/env node
// Builds the hook command as one ES module, which a hook process loads far faster than the ~70 modules
// tsc writes (one file to read and compile instead of a module graph to resolve; see docs/hooks.md, Speed):
//   dist/src/cli/hook-command.js (tsc's ESM)  -> dist/hook/hook-command.js   (rolldown; node:* stays external)
// `loopwatch hook` (dist/src/cli/main.js) loads it when it is there, else the modules themselves. What
// `hook install` loads (only for install) is split into a chunk beside it. Run by `npm run build`.
import { rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'hook');
rmSync(out, { recursive: true, force: true });
await build({
  input: { 'hook-command': join(root, 'dist', 'src', 'cli', 'hook-command.js') },
  platform: 'node',
  external: [/^node:/],
  logLevel: 'warn',
  output: { format: 'esm', dir: out, sourcemap: false, chunkFileNames: 'chunk-[hash].js' },
  write: true,
});
if (process.argv.includes('--verbose') || process.env.LOOPWATCH_VERBOSE === '1') {
  process.stderr.write(`loopwatch: built dist/hook/hook-command.js, ${statSync(join(out, 'hook-command.js')).size} bytes\n`);
}
