#!/usr/bin/env node
// `npm test`'s build and type check, two steps side by side each: first the generated sources, the WebAssembly
// module (`npm run build:wasm`) beside the HTML report's page script (`npm run build:page`: it reads only
// src/report/page), then the JavaScript build (`npm run build:js`: tsc of src and bench, then the bundles)
// beside the type check of src, test and bench (`npm run typecheck`), which both need the generated sources.
// Each is one thread: one after the other they kept one of CI's two cores idle (~40 s for the second pair).
// Each one's output is printed whole once its pair is done, in that order; exits 1 when any failed, naming
// it (the second pair does not start when the first failed).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `npm run <script> --silent` in the repository; resolves with its exit code and its output, both streams in order. */
function run(script) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', script, '--silent'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    const out = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => out.push(b));
    child.on('error', (e) => resolve({ script, code: 1, out: `${e.message}\n` }));
    child.on('close', (code) => resolve({ script, code, out: Buffer.concat(out).toString() }));
  });
}

for (const pair of [['build:wasm', 'build:page'], ['build:js', 'typecheck']]) {
  const done = await Promise.all(pair.map(run));
  for (const r of done) process.stdout.write(r.out);
  const failed = done.filter((r) => r.code !== 0).map((r) => r.script);
  if (failed.length > 0) {
    process.stderr.write(`npm test: ${failed.join(' and ')} failed\n`);
    process.exit(1);
  }
}
