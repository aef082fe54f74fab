/**
 * Which test files run isolated (a fresh worker process each, vitest's default) and which share a worker
 * with other files (`isolate: false`: the modules loaded once per worker, ~0.2 s less a file). A file runs
 * isolated when its text shows it may change or read state another file in the same process would see:
 * everything under test/faults/ (faults injected into workers and WebAssembly memory), imports of the
 * WebAssembly internals (src/wasm/, assembly/: the thread's shared module, its slots and free lists; not
 * the modules of constants, layouts and encoders, which hold no state but caches of what they worked out,
 * nor the pipeline, chanting's stream and the head scan, which every LoopDetector runs) or of the thread's
 * core or instance (`sharedCore`, `sharedInstance`),
 * vitest's mocks, spies, stubs and fake timers, hooks for tests (`…ForTesting`), process-wide settings
 * (environment variables, the working directory, exit code, listeners, warnings, globals), heap readings
 * (`memoryUsage`, `gc`) and the size of the result-reading cache. Anything else shares. A file that needs a fresh process for another reason says
 * so with the comment `// vitest: isolate` anywhere in it. docs/testing.md says how to add a test.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** What in a test file's text sends it to the isolated project. */
export const ISOLATE_IF: readonly RegExp[] = [
  /\/\/ vitest: isolate\b/,
  // any module of src/wasm but those of constants, pure layouts and encoders (and module-xxh64: a hash of
  // bytes in the host area, which every check rewrites), whose only state is caches keyed by their input,
  // and the three every LoopDetector runs on the thread's shared core (wasm-pipeline: a session's
  // pipeline; wasm-prose-stream: chanting's stream; module-report-scan: the result-head scan's own
  // instance): a file that makes its own pipelines or streams, or asks for a text's scan bits, does what any
  // file making a LoopDetector does to the thread's module
  /from '(\.\.\/)+(src\/wasm\/(?!(generated\/abi|slot-layout|chant-layout|raw-json-string|encode-value|encoded-args|module-xxh64|wasm-pipeline|wasm-prose-stream|module-report-scan)\.js')|assembly\/)/,
  // the thread's core or instance itself (its slots, free lists, memory and host area)
  /\bsharedCore\b|wasm-core|\bsharedInstance\b/,
  /\bvi\.(mock|doMock|spyOn|stub\w*|useFakeTimers|hoisted)\b/,
  /\w+ForTesting\b/,
  /process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env/,
  /process\.(chdir|exitCode|on|once|off|removeListener|removeAllListeners|emitWarning|setMaxListeners|umask)\b/,
  /globalThis\.\w+\s*=[^=]|Object\.defineProperty\((globalThis|process)\b/,
  /\bmemoryUsage\b|\bglobal(This)?\.gc\b|--expose-gc/,
  // the size of the thread's result-reading cache (src/text/result-reading.ts: every LoopDetector fills it),
  // read before and after what a test does: another file's heads in a slot could make two readings alike
  /\breadingCache(Size|Chars)\b/,
];

/** Test files (paths relative to `root`, `/`-separated) under `dir`, recursively. */
function testFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...testFiles(root, path));
    else if (e.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** Whether the file at `path` (its text `text`) must run in a process of its own. */
export function mustIsolate(path: string, text: string): boolean {
  return path.startsWith('test/faults/') || ISOLATE_IF.some((re) => re.test(text));
}

/** The test files under `root`/test split into those that run isolated and those that share a worker. */
export function splitTestFiles(root: string): { isolated: string[]; shared: string[] } {
  const isolated: string[] = [];
  const shared: string[] = [];
  for (const path of testFiles(root, 'test').sort()) (mustIsolate(path, readFileSync(join(root, path), 'utf8')) ? isolated : shared).push(path);
  return { isolated, shared };
}
