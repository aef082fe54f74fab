/**
 * The TypeScript samples of README.md and docs/*.md hold against the built package, as a person copying
 * them meets it: each is type-checked (strict, NodeNext) with `loopwatch` and its subpaths resolved as an
 * installed package resolves them (the package's own name, its `exports` and `.d.ts`), the SDKs' samples
 * against the SDKs the repository tests with; the names a sample leaves to the reader are declared `any`
 * (doc-samples.ts). The samples that need only loopwatch are also run, the reader's names given plain
 * values (a tool that prints "ok"). A sample whose API is renamed or whose call no longer type-checks fails here.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { type DocSample, docSamples, sampleModule } from './helpers/doc-samples.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
// inside the package (dist/ is built and ignored), so that `loopwatch` resolves to the package itself
const DIR = `${ROOT}dist/doc-samples/`;
const samples = docSamples();
const OPTIONS: ts.CompilerOptions = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts'], strict: true, skipLibCheck: true, noEmit: true, types: ['node'] };
const UNKNOWN_NAME = new Set([2304, 2552, 2582, 18004]);

/**
 * What a sample's reader's names are, where `any` would not tell a generic its type (guardTools<T>), and
 * the AI SDK 7 sample's `ai` (the repository has v7 as `ai7`).
 */
const typesOf = (s: DocSample): Record<string, string> => (s.modules.includes('@openai/agents') ? { tools: "import('@openai/agents').Tool[]" } : {});
const modulesOf = (s: DocSample): Record<string, string> => (s.imports.some((l) => l.includes('experimental_createSteering')) ? { ai: 'ai7' } : {});

/** The file of sample `i`. */
const fileOf = (i: number): string => `${DIR}sample-${i}.mts`;

/** Type-checks every sample; the diagnostics left once the reader's names are declared, by sample. */
function typeCheck(): { errors: string[][]; declared: string[][] } {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const declared: string[][] = samples.map(() => []);
  // one host for every round, keeping each file it parsed but the samples (rewritten each round), and each
  // round's program handed to the next: a round parses and binds only the samples again, not the libraries,
  // @types/node and the package's declarations (each round checks the whole program as before)
  const host = ts.createCompilerHost(OPTIONS);
  const parsed = new Map<string, ts.SourceFile | undefined>();
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, ...rest) => {
    if (fileName.startsWith(DIR)) return getSourceFile(fileName, ...rest);
    if (!parsed.has(fileName)) parsed.set(fileName, getSourceFile(fileName, ...rest));
    return parsed.get(fileName);
  };
  let program: ts.Program | undefined;
  for (let round = 0; ; round++) {
    samples.forEach((s, i) => writeFileSync(fileOf(i), sampleModule(s, declared[i] ?? [], typesOf(s), modulesOf(s))));
    program = ts.createProgram(samples.map((_, i) => fileOf(i)), OPTIONS, host, program);
    const errors: string[][] = samples.map(() => []);
    let added = false;
    for (const d of ts.getPreEmitDiagnostics(program)) {
      const i = samples.findIndex((_, j) => d.file?.fileName === fileOf(j));
      if (i < 0) continue;
      const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      const name = /(?:Cannot find name|shorthand property) '([^']+)'/.exec(text)?.[1];
      if (UNKNOWN_NAME.has(d.code) && name !== undefined && round < 5) {
        if (!(declared[i] ?? []).includes(name)) (declared[i] ?? []).push(name);
        added = true;
        continue;
      }
      const line = d.file !== undefined && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      errors[i]?.push(`line ${line}: ${text}`);
    }
    if (!added) return { errors, declared };
  }
}

/** Values for the names the runnable samples leave to the reader. */
const READER: Record<string, unknown> = {
  callId: 'toolu_1',
  toolUseId: 'toolu_1',
  runTool: async () => 'ok',
  out: 'ok',
  err: undefined,
  stopTheRun: () => undefined,
  injectIntoContext: () => undefined,
  toolError: (m: string) => m,
  askHuman: async () => true,
  save: () => undefined,
  log: { warn: () => undefined },
  events: [{ session: 'run-42', tool: 'bash', args: { command: 'pytest -q' }, result: 'ok' }],
};

/** Whether a sample needs nothing but loopwatch itself (and the reader's names READER gives). */
const runnable = (s: DocSample, names: readonly string[]): boolean => s.modules.every((m) => m === 'loopwatch') && s.modules.length > 0 && names.every((n) => n in READER || /^(call\d|a|b|e\d)$/.test(n));

describe('the TypeScript samples of README.md and docs/*.md', () => {
  const { errors, declared } = typeCheck();

  it('should find the samples', () => {
    expect(samples.length).toBeGreaterThanOrEqual(10);
    expect(samples.some((s) => s.where.startsWith('README.md'))).toBe(true);
  });

  it.each(samples.map((s, i) => [s.where, i] as const))('should type-check %s against the built package', async (_where, i) => {
    expect(errors[i]).toEqual([]);
    // a name loopwatch exports is imported, not left to the reader (a copied sample would not compile)
    const exported = Object.keys(await import(pathToFileURL(`${ROOT}dist/src/index.js`).href));
    expect((declared[i] ?? []).filter((n) => exported.includes(n))).toEqual([]);
  });

  it.each(samples.map((s, i) => [s.where, i] as const).filter(([, i]) => runnable(samples[i] as DocSample, declared[i] ?? [])))('should run %s (needing only loopwatch)', async (_where, i) => {
    const s = samples[i] as DocSample;
    const names = declared[i] ?? [];
    const js = ts.transpileModule(sampleModule(s, []), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    const values: Record<string, unknown> = { ...READER };
    // checkMany / checkBatch's calls and detectors (docs/library.md)
    const { LoopDetector } = (await import(pathToFileURL(`${ROOT}dist/src/index.js`).href)) as typeof import('../src/index.js');
    for (const n of names) if (/^call\d$/.test(n)) values[n] = { tool: 'bash', args: { command: `make ${n}` }, result: 'ok' };
    for (const n of names) if (/^e\d$/.test(n)) values[n] = { tool: 'read', args: { path: `${n}.py` }, result: 'x' };
    for (const n of names) if (n === 'a' || n === 'b') values[n] = new LoopDetector();
    const prelude = `const { ${names.join(', ')} } = globalThis.__docSample;\n`;
    const file = `${DIR}run-${i}.mjs`;
    writeFileSync(file, js.replace(/^(?!import )/m, prelude));
    (globalThis as { __docSample?: unknown }).__docSample = values;
    const mod = (await import(pathToFileURL(file).href)) as { sample: () => Promise<unknown> };
    await expect(mod.sample()).resolves.not.toThrow();
  });
});
