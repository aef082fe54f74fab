#!/usr/bin/env node
// Builds the `loopwatch` command as one ES module and the chunks it loads on demand:
//   dist/src/cli/main.js (tsc's ESM, ~150 modules) -> dist/src/bin/loopwatch.js (+ chunks beside it)
// One file to resolve, read and link instead of every module: `loopwatch scan` of one line starts in
// ~100 ms against ~140 ms (docs/speed.md, "Starting the command"). node:* and the dependencies stay
// external; the bundle sits at the same depth as dist/src/cli, so the paths the command finds relative to
// itself (dist/bench, dist/hook, package.json, the pool's worker) resolve alike. Run by `npm run build`.
import { rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'src', 'bin');
rmSync(out, { recursive: true, force: true });
await build({
  input: join(root, 'dist', 'src', 'cli', 'main.js'),
  platform: 'node',
  // node's own modules and the installed dependencies are loaded as they are
  external: [/^node:/, /^[^./]/],
  logLevel: 'warn',
  output: { format: 'esm', dir: out, entryFileNames: 'loopwatch.js', chunkFileNames: '[name]-[hash].js', sourcemap: false, minify: { mangle: false, compress: true } },
  write: true,
});
if (process.argv.includes('--verbose') || process.env.LOOPWATCH_VERBOSE === '1') {
  process.stderr.write(`loopwatch: built dist/src/bin/loopwatch.js (${statSync(join(out, 'loopwatch.js')).size} bytes)\n`);
}
