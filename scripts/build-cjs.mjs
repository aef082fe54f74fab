#!/usr/bin/env node
// Builds the CommonJS entry of the package, for `require('loopwatch')` on every Node 20 (require(esm) is on by
// default only from 20.19, and not at all before):
//   dist/src/index.js (tsc's ESM)  -> dist/cjs/index.cjs           (CommonJS, rolldown; dependencies and node:* stay external)
//   dist/src/adapters/<sdk>.js     -> dist/cjs/<sdk>.cjs           (the SDK adapters, `loopwatch/<sdk>`; code they share with
//                                                                   the index, e.g. the error classes, in dist/cjs/shared-*.cjs)
//   dist/src/nats.js               -> dist/cjs/nats.cjs            (the NATS service's client, `loopwatch/nats`; the NATS
//                                                                   client packages, optional peers, loaded on first use)
//   dist/src/**/*.d.ts             -> dist/cjs/types/**/*.d.ts     (the same declarations, read as CommonJS ones:
//                                                                   dist/cjs/package.json says "type": "commonjs")
// The bundle finds the pool's worker module at dist/src/pool/pool-worker-entry.cjs, as the ESM build does. Quiet
// unless asked (--verbose or LOOPWATCH_VERBOSE=1). Run by `npm run build`.
import { cpSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// what is installed beside loopwatch, never bundled into it: its dependencies and its (optional) peers
const dependencies = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})];
const out = join(root, 'dist', 'cjs');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
/** The package's subpath entries besides the index: the SDK adapters (package.json "exports" names the same). */
const ADAPTERS = ['ai-sdk', 'openai-agents', 'langchain', 'anthropic', 'mastra'];
await build({
  input: {
    index: join(root, 'dist', 'src', 'index.js'),
    ...Object.fromEntries(ADAPTERS.map((a) => [a, join(root, 'dist', 'src', 'adapters', `${a}.js`)])),
    nats: join(root, 'dist', 'src', 'nats.js'),
  },
  platform: 'node',
  // runtime dependencies stay packages of their own (one @opentelemetry/api for the host and loopwatch)
  external: [/^node:/, ...dependencies.map((d) => new RegExp(`^${d.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(/|$)`))],
  logLevel: 'warn',
  // chunks beside the entries, so a module's own directory is dist/cjs wherever the bundler puts it
  output: { format: 'cjs', dir: out, entryFileNames: '[name].cjs', chunkFileNames: 'shared-[hash].cjs', sourcemap: false },
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
