/**
 * A pool worker starts from a CommonJS file whose export is a promise of the entry point: piscina's
 * `require()` of it runs no ES module code. Given the ES module itself, Node 20's `require(esm)`
 * instantiates the graph synchronously, and a worker terminated at that moment aborted the whole
 * process (`FATAL ERROR: v8::Module::IsGraphAsync must be used on an instantiated module`, a vitest
 * fork of `test/faults/pool-worker-kills.test.ts` on a loaded machine). The abort itself is too rare to
 * catch in a test; what prevents it is checked here. The entry point comes from the build's one-file
 * bundle of the worker (`pool-worker-bundle.js`, scripts/build-pool-worker.mjs), or from tsc's modules
 * when the bundle is missing or older than them.
 */
import { copyFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workerFile } from '../src/pool/loop-pool.js';
import { tempFolder } from './helpers/temp-folder.js';

const load = (file: string): unknown => createRequire(import.meta.url)(file);

describe('the file a pool worker starts from', () => {
  it('should be CommonJS whose require() gives a promise of the entry point, loading the ES module asynchronously', async () => {
    const file = workerFile();
    expect(file).toMatch(/pool-worker-entry\.cjs$/);
    const loaded: unknown = load(file);
    expect(loaded).toBeInstanceOf(Promise);
    expect(typeof (await loaded)).toBe('function');
    // the build made the bundle, as new as tsc's modules at least: what the entry takes (the next test)
    const written = (name: string): number => statSync(join(dirname(file), name)).mtimeMs;
    expect(written('pool-worker-bundle.js')).toBeGreaterThanOrEqual(written('pool-worker.js'));
  });

  it('should take tsc\'s modules when the bundle is missing or older than them', async () => {
    /** The entry point's name, with the built entry beside stand-ins for the modules and (written `age` s before them) the bundle. */
    const entryFrom = async (age: number | null): Promise<string> => {
      const dir = tempFolder('pool-entry');
      copyFileSync(workerFile(), join(dir, 'pool-worker-entry.cjs'));
      writeFileSync(join(dir, 'package.json'), '{"type": "module"}');
      writeFileSync(join(dir, 'pool-worker.js'), 'export default function modules() {}');
      if (age !== null) {
        writeFileSync(join(dir, 'pool-worker-bundle.js'), 'export default function bundle() {}');
        const now = Date.now() / 1000;
        utimesSync(join(dir, 'pool-worker.js'), now, now);
        utimesSync(join(dir, 'pool-worker-bundle.js'), now - age, now - age);
      }
      return ((await load(join(dir, 'pool-worker-entry.cjs'))) as () => void).name;
    };
    expect(await entryFrom(0)).toBe('bundle');
    expect(await entryFrom(-60)).toBe('bundle');
    expect(await entryFrom(60)).toBe('modules');
    expect(await entryFrom(null)).toBe('modules');
  });
});
