#!/usr/bin/env node
// Builds the CommonJS entry of the package, for `require('loopwatch')` on every Node 20 (require(esm) is on by
// default only from 20.19, and not at all before):
//   dist/src/index.js (tsc's ESM)  -> dist/cjs/index.cjs           (one CommonJS bundle, rolldown; dependencies and node:* stay external)
//   dist/src/**/*.d.ts             -> dist/cjs/types/**/*.d.ts     (the same declarations, read as CommonJS ones:
//                                                                   dist/cjs/package.json says "type": "commonjs")
// The bundle finds the pool's worker module at dist/src/pool/pool-worker.js, as the ESM build does. Quiet
// unless asked (--verbose or LOOPWATCH_VERBOSE=1). Run by `npm run build`.
import { cpSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dependencies = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).dependencies ?? {});
const out = join(root, 'dist', 'cjs');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  input: join(root, 'dist', 'src', 'index.js'),
  platform: 'node',
  // runtime dependencies stay packages of their own (one @opentelemetry/api for the host and loopwatch)
  external: [/^node:/, ...dependencies.map((d) => new RegExp(`^${d.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(/|$)`))],
  logLevel: 'warn',
  output: { format: 'cjs', file: join(out, 'index.cjs'), sourcemap: false },
  write: true,
});
writeFileSync(join(out, 'package.json'), JSON.stringify({ type: 'commonjs' }, null, 2) + '\n');
cpSync(join(root, 'dist', 'src'), join(out, 'types'), {
  recursive: true,
  filter: (src) => statSync(src).isDirectory() || src.endsWith('.d.ts'),
});
if (process.argv.includes('--verbose') || process.env.LOOPWATCH_VERBOSE === '1') {
  process.stderr.write(`loopwatch: built dist/cjs/index.cjs, ${statSync(join(out, 'index.cjs')).size} bytes\n`);
}
