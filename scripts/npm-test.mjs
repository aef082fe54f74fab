#!/usr/bin/env node
// `npm test`: the build, the type check and the tests, overlapped where they can be. First the generated
// sources, the WebAssembly module (`npm run build:wasm`) beside the HTML report's page script (`npm run
// build:page`: it reads only src/report/page); then the JavaScript build (`npm run build:js`: tsc of src and
// bench, then the bundles) beside the type check of src, test and bench (`npm run typecheck`), which both
// need the generated sources. The tests (`vitest run`, with this script's arguments) need the build, not the
// type check: they start as soon as the build is done, while the type check goes on beside them, taking the
// CPU the test files leave idle while they wait on child processes, workers and sockets (the type check is
// one thread of ~55 CPU-s; it used to hold the tests back ~35 s on 2 cores). At its own priority: at nice
// 10 it got 56 CPU-s in 44 minutes on this shared machine at load 28-39, and finished long after the tests.
// Output: each build step's whole once its pair is done; vitest's as it runs; the type check's after
// vitest's. Exits 1 when any step failed, naming it (nothing after a failed build step starts; a failed type
// check fails the run after the tests, as it did before them).
//   node scripts/npm-test.mjs [vitest args...]      (npm test -- [vitest args...])
//   node scripts/npm-test.mjs --no-tests           the build and the type check alone
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const windows = process.platform === 'win32';
const npm = windows ? 'npm.cmd' : 'npm';
const args = process.argv.slice(2);
const tests = !args.includes('--no-tests');

/**
 * Runs `npm run <script> --silent` in the repository, its output kept; resolves with its exit code and its
 * output, both streams in order.
 */
function run(script) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', script, '--silent'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], shell: windows });
    const out = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => out.push(b));
    child.on('error', (e) => resolve({ script, code: 1, out: `${e.message}\n` }));
    child.on('close', (code) => resolve({ script, code, out: Buffer.concat(out).toString() }));
  });
}

/** Runs `vitest run` with `extra`, its output straight through; resolves with its exit code. */
function vitest(extra) {
  return new Promise((resolve) => {
    const bin = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
    const child = spawn(process.execPath, [bin, 'run', ...extra], { cwd: process.cwd(), stdio: 'inherit' });
    child.on('error', (e) => {
      process.stderr.write(`${e.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

/** Prints each result's output in order; exits 1 naming the failed ones, if any. */
function report(done) {
  for (const r of done) process.stdout.write(r.out);
  const failed = done.filter((r) => r.code !== 0).map((r) => r.script);
  if (failed.length > 0) {
    process.stderr.write(`npm test: ${failed.join(' and ')} failed\n`);
    process.exit(1);
  }
}

report(await Promise.all([run('build:wasm'), run('build:page')]));
const typecheck = run('typecheck');
const build = await run('build:js');
if (build.code !== 0 || !tests) report([build, await typecheck]);
else {
  process.stdout.write(build.out);
  const code = await vitest(args);
  const checked = await typecheck;
  report([checked, { script: 'vitest run', code, out: '' }]);
}
