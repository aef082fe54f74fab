/**
 * Which test files run isolated (a fresh worker process each, vitest's default) and which share a worker
 * with other files (`isolate: false`: the modules loaded once per worker, ~0.2 s less a file). A file runs
 * isolated when its text shows it may change or read state another file in the same process would see:
 * everything under test/faults/ (faults injected into workers and WebAssembly memory), imports of the
 * WebAssembly internals (src/wasm/, assembly/: the thread's shared module, its slots and free lists; not
 * the modules of constants, layouts and encoders, which hold no state but caches of what they worked out),
 * vitest's mocks, spies, stubs and fake timers, hooks for tests (`…ForTesting`), process-wide settings
 * (environment variables, the working directory, exit code, listeners, warnings, globals) and heap readings
 * (`memoryUsage`, `gc`). Anything else shares. A file that needs a fresh process for another reason says
 * so with the comment `// vitest: isolate` anywhere in it. docs/testing.md says how to add a test.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** What in a test file's text sends it to the isolated project. */
export const ISOLATE_IF: readonly RegExp[] = [
  /\/\/ vitest: isolate\b/,
  // any module of src/wasm but those of constants, pure layouts and encoders (and module-xxh64: a hash of
  // bytes in the host area, which every check rewrites), whose only state is caches keyed by their input
  /from '(\.\.\/)+(src\/wasm\/(?!(generated\/abi|slot-layout|chant-layout|raw-json-string|encode-value|encoded-args|module-xxh64)\.js')|assembly\/)/,
  /\bsharedCore\b|wasm-core/,
  /\bvi\.(mock|doMock|spyOn|stub\w*|useFakeTimers|hoisted)\b/,
  /\w+ForTesting\b/,
  /process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env/,
  /process\.(chdir|exitCode|on|once|off|removeListener|removeAllListeners|emitWarning|setMaxListeners|umask)\b/,
  /globalThis\.\w+\s*=[^=]|Object\.defineProperty\((globalThis|process)\b/,
  /\bmemoryUsage\b|\bglobal(This)?\.gc\b|--expose-gc/,
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
