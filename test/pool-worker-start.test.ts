/**
 * A pool worker starts from a CommonJS file whose export is a promise of the entry point: piscina's
 * `require()` of it runs no ES module code. Given the ES module itself, Node 20's `require(esm)`
 * instantiates the graph synchronously, and a worker terminated at that moment aborted the whole
 * process (`FATAL ERROR: v8::Module::IsGraphAsync must be used on an instantiated module`, a vitest
 * fork of `test/faults/pool-worker-kills.test.ts` on a loaded machine). The abort itself is too rare to
 * catch in a test; what prevents it is checked here.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { workerFile } from '../src/pool/loop-pool.js';

describe('the file a pool worker starts from', () => {
  it('should be CommonJS whose require() gives a promise of the entry point, loading the ES module asynchronously', async () => {
    const file = workerFile();
    expect(file).toMatch(/pool-worker-entry\.cjs$/);
    const loaded: unknown = createRequire(import.meta.url)(file);
    expect(loaded).toBeInstanceOf(Promise);
    expect(typeof (await loaded)).toBe('function');
  });
});
