#!/usr/bin/env node
// `npm test`: the build, the type check and the tests, overlapped where they can be. First the generated
// sources, the WebAssembly module (`npm run build:wasm`) beside the HTML report's page script (`npm run
// build:page`: it reads only src/report/page); then the JavaScript build and the type check, which both need
// the generated sources, as one TypeScript program (scripts/tsc-once.mjs: `npm run build:js`'s tsc of src and
// bench and `npm run typecheck`'s of src, test and bench checked src and bench twice, ~13 CPU-s): src and
// bench checked and emitted, then the bundles (`npm run build:bundles`) while the same program checks test/.
// The tests (`vitest run`, with this script's arguments) need the build, not the type check of test/: they
// start as soon as the bundles are done, while the type check goes on beside them, taking the
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

/**
 * Runs scripts/tsc-once.mjs (the build's tsc and the type check as one program): `built` resolves when it
 * has emitted src and bench, with tsc's exit code for them and their diagnostics (`build:js`'s tsc step);
 * `checked` when it ends, with the type check's code and test/'s diagnostics (`typecheck`'s). A process
 * that ends without saying it built fails both, its output in each.
 */
function tscOnce() {
  const child = spawn(process.execPath, [fileURLToPath(new URL('tsc-once.mjs', import.meta.url))], { cwd: root, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  const out = [];
  child.stdout.on('data', (b) => out.push(b));
  child.stderr.on('data', (b) => out.push(b));
  let said = null;
  const built = new Promise((resolve) => {
    said = resolve;
    child.on('message', (m) => {
      said = null;
      resolve({ script: 'build:js', code: m.built, out: m.out });
    });
  });
  const checked = new Promise((resolve) => {
    const end = (code, text) => {
      if (said !== null) said({ script: 'build:js', code: 1, out: text });
      resolve({ script: 'typecheck', code, out: said === null ? text : '' });
    };
    child.on('error', (e) => end(1, `${e.message}\n`));
    child.on('close', (code) => end(code ?? 1, Buffer.concat(out).toString()));
  });
  return { built, checked };
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
const tsc = tscOnce();
const emitted = await tsc.built;
const bundled = emitted.code === 0 ? await run('build:bundles') : { code: 0, out: '' };
const build = { script: 'build:js', code: emitted.code !== 0 ? emitted.code : bundled.code, out: emitted.out + bundled.out };
if (build.code !== 0 || !tests) report([build, await tsc.checked]);
else {
  process.stdout.write(build.out);
  const code = await vitest(args);
  const checked = await tsc.checked;
  report([checked, { script: 'vitest run', code, out: '' }]);
}
