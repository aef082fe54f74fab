/**
 * The TypeScript samples of README.md and docs/*.md (fenced ```ts blocks), as modules a test can type-check
 * and run against the built package: each sample's `import` lines stay on top, its other lines become the
 * body of `export async function sample()` (a sample may `return` or `await`), and the names it leaves to
 * the reader (`runTool`, `out`, `model`, ...) are declared `any` (found as tsc's "Cannot find name").
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One sample: where it is, its import lines and its other lines. */
export interface DocSample {
  /** `docs/library.md:85`: the file and the line of its fence. */
  readonly where: string;
  readonly imports: readonly string[];
  readonly body: readonly string[];
  /** The modules it imports. */
  readonly modules: readonly string[];
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Every ```ts sample of README.md and docs/*.md, in file order. */
export function docSamples(): DocSample[] {
  const files = ['README.md', ...readdirSync(`${ROOT}docs`).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
  const out: DocSample[] = [];
  for (const file of files) {
    const lines = readFileSync(`${ROOT}${file}`, 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!/^\s*```ts\s*$/.test(lines[i] ?? '')) continue;
      const start = i;
      const block: string[] = [];
      for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i] ?? ''); i++) block.push(lines[i] ?? '');
      const indent = Math.min(...block.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length));
      const text = block.map((l) => l.slice(indent));
      const imports = text.filter((l) => l.startsWith('import '));
      const modules = imports.map((l) => /from '([^']+)'/.exec(l)?.[1] ?? '');
      out.push({ where: `${file}:${start + 1}`, imports, body: text.filter((l) => !l.startsWith('import ')), modules });
    }
  }
  return out;
}

/**
 * The module text of a sample, with `declared` names declared `any`, or of the type `types` gives (a name
 * passed to a generic whose type `any` would not tell), and its imports' modules renamed as `modules` says
 * (a sample of AI SDK 7, which the repository installs as `ai7`).
 */
export function sampleModule(s: DocSample, declared: readonly string[], types: Readonly<Record<string, string>> = {}, modules: Readonly<Record<string, string>> = {}): string {
  return [
    ...s.imports.map((l) => l.replace(/from '([^']+)'/, (all, m: string) => (modules[m] === undefined ? all : `from '${modules[m]}'`))),
    ...declared.map((n) => `declare const ${n}: ${types[n] ?? 'any'};`),
    '// eslint-disable-next-line',
    'export async function sample(): Promise<unknown> {',
    ...s.body.map((l) => `  ${l}`),
    '  return undefined;',
    '}',
    '',
  ].join('\n');
}
