/**
 * The file a pool worker thread starts from: CommonJS, whose export is the worker's entry point
 * (`pool-worker.ts`) once that ES module has been imported.
 *
 * piscina loads a worker's file with `require()` first. Given the ES module itself, Node 20 takes its
 * `require(esm)` path, which instantiates the module graph synchronously; a worker terminated at that
 * moment (a pool closed, or a worker killed, while a worker starts up) aborts the whole process:
 * `FATAL ERROR: v8::Module::IsGraphAsync must be used on an instantiated module`, from
 * `ModuleWrap::InstantiateSync` under `loadESMFromCJS` (seen in this project's fault tests under load).
 * `require()` of this file runs no ES module code; the `import()` below loads the graph asynchronously,
 * which a terminated worker simply stops. piscina awaits the export (a promise of the function).
 */
export = import('./pool-worker.js').then((m) => m.default);
