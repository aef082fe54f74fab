#!/usr/bin/env node
// Builds what a LoopPool worker thread loads as one ES module:
//   dist/src/pool/pool-worker.js (tsc's ESM, 199 modules) -> dist/src/pool/pool-worker-bundle.js
// pool-worker-entry.cjs imports the bundle when it is there (tsc's modules otherwise): one file to resolve,
// read and link instead of every module, ~0.08 CPU-s a worker start against ~0.18 (docs/speed.md, "citime14").
// The bundle sits beside tsc's modules, so what it finds relative to itself (installed peers) resolves alike;
// node:* and the dependencies stay external. Run by `npm run build`.
import { rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const file = join(root, 'dist', 'src', 'pool', 'pool-worker-bundle.js');
rmSync(file, { force: true });
await build({
  input: join(root, 'dist', 'src', 'pool', 'pool-worker.js'),
  platform: 'node',
  // node's own modules and the installed dependencies are loaded as they are
  external: [/^node:/, /^[^./]/],
  logLevel: 'warn',
  // compressed with names kept (stack traces stay readable); one file, no chunks
  output: { format: 'esm', file, codeSplitting: false, sourcemap: false, minify: { mangle: false, compress: true } },
  write: true,
});
if (process.argv.includes('--verbose') || process.env.LOOPWATCH_VERBOSE === '1') {
  process.stderr.write(`loopwatch: built dist/src/pool/pool-worker-bundle.js (${statSync(file).size} bytes)\n`);
}
