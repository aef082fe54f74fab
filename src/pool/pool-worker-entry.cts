/**
 * The file a pool worker thread starts from: CommonJS, whose export is the worker's entry point
 * (`pool-worker.ts`) once that ES module has been imported: from `pool-worker-bundle.js`, the same module
 * and all it imports in one file (scripts/build-pool-worker.mjs; a worker starts in ~0.08 CPU-s against
 * ~0.18 for tsc's 199 modules), or from tsc's `pool-worker.js` where the bundle is missing or older than
 * it (tsc run again without the bundles: the modules are what the build now says).
 *
 * piscina loads a worker's file with `require()` first. Given the ES module itself, Node 20 takes its
 * `require(esm)` path, which instantiates the module graph synchronously; a worker terminated at that
 * moment (a pool closed, or a worker killed, while a worker starts up) aborts the whole process:
 * `FATAL ERROR: v8::Module::IsGraphAsync must be used on an instantiated module`, from
 * `ModuleWrap::InstantiateSync` under `loadESMFromCJS` (seen in this project's fault tests under load).
 * `require()` of this file runs no ES module code; the `import()` below loads the graph asynchronously,
 * which a terminated worker simply stops. piscina awaits the export (a promise of the function).
 */
import fs = require('node:fs');
import path = require('node:path');
import url = require('node:url');

/** When `file` was last written (ms), or -1 when it is missing. */
const written = (file: string): number => fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? -1;

/** The bundled worker module beside this file. */
const bundle = path.join(__dirname, 'pool-worker-bundle.js');
/** Whether the bundle is there and no older than tsc's module it was built from. */
const bundled = written(bundle) >= Math.max(0, written(path.join(__dirname, 'pool-worker.js')));

export = (bundled ? (import(url.pathToFileURL(bundle).href) as Promise<typeof import('./pool-worker.js')>) : import('./pool-worker.js')).then((m) => m.default);
