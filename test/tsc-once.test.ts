/**
 * scripts/tsc-once.mjs, `npm test`'s build tsc and type check as one TypeScript program, on a small project
 * shaped as the repository (tsconfig.json of src and test, tsconfig.build.json of src, emitting): it writes
 * byte for byte what `tsc -p tsconfig.build.json` writes, says it built (with src's diagnostics) over its IPC
 * channel before its exit, then prints test/'s diagnostics in tsc's format and exits 2 when there are any; an
 * error in src fails the build half. The repository's own emit was compared whole (docs/speed.md, "citime9").
 */
import { fork, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers/packed-package.js';
import { tempFolder } from './helpers/temp-folder.js';

const SCRIPT = join(REPO, 'scripts', 'tsc-once.mjs');
const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');

/** A project of `files` (path: text) with the repository's two tsconfig shapes; returns its folder. */
function project(files: Record<string, string>): string {
  const dir = tempFolder('tsc-once');
  // no default lib (its parse was most of each run's ~2 CPU-s): the global types the checker needs, empty
  const options = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', noLib: true, types: [], strict: true, noUnusedLocals: true, skipLibCheck: true, declaration: true, sourceMap: true, outDir: 'dist', rootDir: '.' };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, include: ['src', 'test'] }));
  writeFileSync(join(dir, 'tsconfig.build.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: false, sourceMap: false }, include: ['src'] }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** Every file under `dir`, relative path to text. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out[relative(dir, join(d, e.name))] = readFileSync(join(d, e.name), 'utf8');
    }
  };
  walk(dir);
  return out;
}

/** Runs the script on `dir` with an IPC channel: the message it sent, its stdout and its exit code. */
function once(dir: string): Promise<{ message: unknown; stdout: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = fork(SCRIPT, [dir], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    let message: unknown = null;
    let stdout = '';
    child.stdout?.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr?.on('data', (b: Buffer) => (stdout += b.toString()));
    child.on('message', (m) => (message = m));
    child.on('error', reject);
    child.on('close', (code) => resolve({ message, stdout, code }));
  });
}

const SRC = {
  'src/globals.d.ts': ['Array<T>', 'Boolean', 'Function', 'IArguments', 'Number', 'Object', 'RegExp', 'String', 'CallableFunction', 'NewableFunction'].map((t) => `interface ${t} {}\n`).join(''),
  'src/a.ts': 'export interface Box { readonly n: number }\nexport function box(n: number): Box {\n  return { n };\n}\n',
  'src/b.ts': "import { box, type Box } from './a.js';\nexport const two: Box = box(2);\nexport class Pair {\n  constructor(readonly left: Box, readonly right = two) {}\n}\n",
};

describe('scripts/tsc-once.mjs', () => {
  it('should emit what tsc -p tsconfig.build.json emits, say it built, then report test/\'s errors', async () => {
    const dir = project({ ...SRC, 'test/b.test.ts': "import { two } from '../src/b.js';\nconst s: string = two.n;\nexport { s };\n" });
    const r = await once(dir);
    expect(r.message).toEqual({ built: 0, out: '' });
    expect(r.stdout).toBe("test/b.test.ts(2,7): error TS2322: Type 'number' is not assignable to type 'string'.\n");
    expect(r.code).toBe(2);
    const tsc = spawnSync(process.execPath, [TSC, '-p', join(dir, 'tsconfig.build.json'), '--outDir', join(dir, 'dist-tsc')], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    const ours = tree(join(dir, 'dist'));
    expect(Object.keys(ours).sort()).toEqual(['src/a.d.ts', 'src/a.js', 'src/b.d.ts', 'src/b.js']);
    expect(ours).toEqual(tree(join(dir, 'dist-tsc')));
  }, 60_000);

  it('should fail the build half on an error in src, and exit 0 when test/ has none', async () => {
    const bad = await once(project({ ...SRC, 'src/c.ts': 'const unused = 1;\nexport {};\n', 'test/b.test.ts': "import { two } from '../src/b.js';\nexport const n: number = two.n;\n" }));
    expect(bad).toEqual({ message: { built: 2, out: "src/c.ts(1,7): error TS6133: 'unused' is declared but its value is never read.\n" }, stdout: '', code: 0 });
  }, 60_000);
});
