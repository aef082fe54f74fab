#!/usr/bin/env node
// The JavaScript build's tsc and the type check as one TypeScript program: `tsc -p tsconfig.build.json`
// (src and bench, emitted) and `tsc -p tsconfig.json --noEmit` (src, test and bench) checked src and bench
// twice, ~13 CPU-s of a one-thread check (docs/speed.md, "citime9"). Here one program of tsconfig.json's
// files, with tsconfig.build.json's options, is checked and emitted in two halves:
//   1. tsconfig.build.json's files: their diagnostics (as that tsc prints them), then their emit, the same
//      files tsc writes (its root files: a file of src or bench importing one of test/ would not be emitted);
//   2. the rest (test/): their diagnostics, as `tsc -p tsconfig.json --noEmit` prints them.
// Between the two, with an IPC channel (npm-test.mjs's), it sends {built: exit code, out: the first half's
// diagnostics}, so the bundles and the tests start while test/ is checked, and prints the second half; its
// exit code is then the check's. Without a channel it prints both halves and exits 2 if either had an
// error (tsc's code for errors in its output). Output: tsc's plain format (file(line,col): error TSnnnn: text).
// The emit is byte for byte tsc -p tsconfig.build.json's (test/tsc-once.test.ts, on a small project).
//   node scripts/tsc-once.mjs [PROJECT]      (PROJECT: the folder of the two tsconfig files; the repository's)
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(process.argv[2] ?? resolve(dirname(fileURLToPath(import.meta.url)), '..'));

/** tsconfig at `path` parsed as tsc -p does; exits 1 naming its errors. */
function parsed(path) {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) };
  const config = ts.getParsedCommandLineOfConfigFile(resolve(root, path), undefined, host);
  if (config === undefined || config.errors.length > 0) fail(config?.errors ?? []);
  return config;
}

const formatHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
/** Diagnostics in tsc's plain format (tsc prints them so when its output is not a terminal). */
const format = (diagnostics) => ts.formatDiagnostics(diagnostics, formatHost);

/** Prints `diagnostics` and exits 1 (a tsconfig that cannot be read). */
function fail(diagnostics) {
  process.stderr.write(format(diagnostics));
  process.exit(1);
}

const build = parsed('tsconfig.build.json');
const all = parsed('tsconfig.json');
const emitted = new Set(build.fileNames.map((f) => resolve(f)));
// tsconfig.build.json's options (emit on, no source maps), tsconfig.json's files: the options that differ
// (noEmit, sourceMap) decide what is written, not what the checker sees
const program = ts.createProgram({ rootNames: all.fileNames, options: build.options, projectReferences: build.projectReferences });
const inBuild = (sf) => emitted.has(resolve(sf.fileName));

/** Diagnostics of `files`, with the program's own (options, global) when `global`. */
function diagnosticsOf(files, global) {
  const out = global ? [...program.getConfigFileParsingDiagnostics(), ...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()] : [];
  for (const sf of files) out.push(...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf));
  return out;
}

const sources = program.getSourceFiles().filter((sf) => !program.isSourceFileDefaultLibrary(sf) && !program.isSourceFileFromExternalLibrary(sf) && !sf.fileName.includes('/node_modules/'));
const first = diagnosticsOf(sources.filter(inBuild), true);
for (const sf of sources.filter(inBuild)) {
  const r = program.emit(sf);
  first.push(...r.diagnostics);
}
const errors = (diagnostics) => diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error);
const builtCode = errors(first) ? 2 : 0;
const firstOut = format(ts.sortAndDeduplicateDiagnostics(first));
// awaited: the check below holds the event loop for seconds, and the message must be on its way first
if (process.send !== undefined) await new Promise((done) => process.send({ built: builtCode, out: firstOut }, done));
else process.stdout.write(firstOut);

const rest = diagnosticsOf(sources.filter((sf) => !inBuild(sf)), false);
process.stdout.write(format(ts.sortAndDeduplicateDiagnostics(rest)));
const channel = process.send !== undefined;
if (channel) process.disconnect();
process.exitCode = errors(rest) || (!channel && builtCode !== 0) ? 2 : 0;
