/**
 * test/setup/isolation.ts, which sends a test file to the isolated project (a process of its own) by its
 * text: an import of the WebAssembly internals isolates it (the thread's shared module, its slots, free
 * lists and scan caches), except the modules of constants, layouts and encoders, which hold no state but
 * caches of what they worked out, and the pipeline, chanting's stream and the head scan, which every
 * LoopDetector runs on the thread's module; a file naming the thread's core or instance, or reading the size
 * of the result-reading cache, is isolated; any other rule still isolates such a file.
 */
import { describe, expect, it } from 'vitest';
import { mustIsolate } from './setup/isolation.js';

// (the texts below are built so that this file's own text matches no rule: it shares a worker)

const imports = (...modules: string[]): string => modules.map((m, i) => `import { x${i} } from '${'../src/wasm/'}${m}.js';\n`).join('');

describe('which test files run isolated', () => {
  it('should share a file importing only constants, layouts and encoders of src/wasm', () => {
    for (const m of ['generated/abi', 'slot-layout', 'chant-layout', 'raw-json-string', 'encode-value', 'encoded-args', 'module-xxh64']) expect(mustIsolate('test/a.test.ts', imports(m)), m).toBe(false);
    expect(mustIsolate('test/a.test.ts', imports('generated/abi', 'slot-layout'))).toBe(false);
  });

  it('should share a file making its own pipelines or chanting streams, or asking for scan bits, as any file making a LoopDetector does', () => {
    for (const m of ['wasm-pipeline', 'wasm-prose-stream', 'module-report-scan']) expect(mustIsolate('test/a.test.ts', imports(m)), m).toBe(false);
    expect(mustIsolate('test/a.test.ts', imports('wasm-pipeline', 'chant-layout', 'generated/abi'))).toBe(false);
  });

  it("should isolate a file reaching the thread's core or instance, or reading the result-reading cache's size", () => {
    // (the names are reached through a helper or another module: no src/wasm import in the file itself)
    const call = (name: string): string => `import { ${name} } from './helpers/h.js';\nconst x = ${name}();\n`;
    for (const name of ['shared|Core', 'shared|Instance', 'readingCache|Size', 'readingCache|Chars'].map((n) => n.replace('|', ''))) {
      expect(mustIsolate('test/a.test.ts', call(name)), name).toBe(true);
      expect(mustIsolate('test/a.test.ts', `${imports('wasm-pipeline')}${call(name)}`), name).toBe(true);
    }
  });

  it('should isolate a file importing any other module of src/wasm or assembly, alone or beside those', () => {
    for (const m of ['wasm-module', 'wasm-|core'.replace('|', ''), 'state-block', 'record-writer', 'module-unit-hash', 'module-args-summary', 'generated/abi-extra', 'slot-layouts', 'wasm-pipelines']) expect(mustIsolate('test/a.test.ts', imports(m)), m).toBe(true);
    expect(mustIsolate('test/a.test.ts', imports('generated/abi', 'wasm-module'))).toBe(true);
    expect(mustIsolate('test/a.test.ts', imports('wasm-module', 'slot-layout'))).toBe(true);
    expect(mustIsolate('test/a.test.ts', imports('wasm-pipeline', 'wasm-module'))).toBe(true);
    expect(mustIsolate('test/a.test.ts', `import { y } from ${"'"}../../assembly/slots.js';\n`)).toBe(true);
    expect(mustIsolate('test/faults/a.test.ts', imports('generated/abi'))).toBe(true);
    expect(mustIsolate('test/a.test.ts', `${imports('slot-layout')}${'process'}.env.X = '1';\n`)).toBe(true);
  });
});
