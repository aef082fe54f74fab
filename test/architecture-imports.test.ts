/**
 * The house follows the data (issue 29): src/ has no import cycles, and every import points down the floors
 * docs/development.md lists ("Floors"). Every src/**\/*.ts file is read; its relative imports (value and type
 * imports, re-exports, `import()` calls, found by TypeScript's own pre-processor, so comments never count)
 * are resolved to files. A cycle is named file by file; an import up the floors is named with both floors.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/**
 * The floors, bottom to top, by path under src/ (a folder ends with `/`; the longest path that matches a
 * file places it). A file imports from its own floor or the floors below it, never above.
 */
const FLOORS: readonly { readonly name: string; readonly paths: readonly string[] }[] = [
  { name: 'data', paths: ['errors.ts', 'types.ts'] },
  { name: 'fingerprint', paths: ['fingerprint/'] },
  {
    name: 'session',
    paths: ['wire/', 'text/', 'options/', 'snapshot/', 'state/', 'wasm/', 'formats/', 'detectors/', 'policy/', 'live/', 'session/', 'presets/', 'peers/'],
  },
  { name: 'engine', paths: ['engine/', 'metrics/engine-metrics.ts'] },
  { name: 'pool', paths: ['pool/'] },
  { name: 'hosts', paths: ['serve/', 'nats.ts', 'hooks/', 'files/', 'mcp/', 'adapters/', 'metrics/'] },
  { name: 'tools', paths: ['cli/', 'report/', 'eval/', 'calibrate/', 'demo/', 'metrics/scan-metrics.ts'] },
  { name: 'surface', paths: ['index.ts'] },
];

/**
 * Folders that stay below others of their own floor: `wire/` (an event as bytes: read from a record's
 * bytes, checked and written for the trip to a worker) imports nothing from `session/`, which uses it.
 */
const BELOW: readonly { readonly from: string; readonly never: readonly string[] }[] = [{ from: 'wire/', never: ['session/'] }];

/** Every .ts/.cts/.mts file under `dir`, as paths relative to src/ with `/` separators. */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, d.name);
    if (d.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.[cm]?ts$/.test(d.name) && !d.name.endsWith('.d.ts')) out.push(relative(SRC, p).split(sep).join('/'));
  }
  return out.sort();
}

/** Relative imports that name no src/ file (a checker that cannot follow an import could miss a cycle). */
const unresolved: string[] = [];

/** The src/ files `file` imports (relative specifiers only; packages and node: builtins are not ours). */
function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  const found = new Set<string>();
  for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const target = relative(SRC, resolve(SRC, dirname(file), fileName)).split(sep).join('/');
    const candidates = [target.replace(/\.js$/, '.ts'), target.replace(/\.cjs$/, '.cts'), target.replace(/\.mjs$/, '.mts'), target, `${target}.ts`, `${target}/index.ts`];
    const hit = candidates.find((c) => known.has(c));
    if (hit !== undefined) found.add(hit);
    else unresolved.push(`${file}: ${fileName}`);
  }
  return [...found].sort();
}

/** The strongly connected components of more than one file (or a file importing itself), Tarjan's way. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

/** One cycle through the component's first file, as `a -> b -> a` (the shortest, found breadth first). */
function cycleThrough(component: readonly string[], graph: ReadonlyMap<string, readonly string[]>): string {
  const inside = new Set(component);
  const start = component[0] as string;
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift() as string;
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(from.get(path[0] as string) as string);
        return [...path, start].join(' -> ');
      }
      if (!from.has(w)) {
        from.set(w, v);
        queue.push(w);
      }
    }
  }
  return start;
}

/** The floor `file` is on (its index in FLOORS), or -1. */
function floorOf(file: string): number {
  let best = -1;
  let bestLength = -1;
  FLOORS.forEach((floor, i) => {
    for (const p of floor.paths) {
      const hit = p.endsWith('/') ? file.startsWith(p) : file === p;
      if (hit && p.length > bestLength) {
        best = i;
        bestLength = p.length;
      }
    }
  });
  return best;
}

const files = sourceFiles(SRC);
const known = new Set(files);
const graph = new Map(files.map((f) => [f, importsOf(f, known)] as const));

describe('src/ imports', () => {
  it('reads the tree (the checker sees the imports it is meant to judge)', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(graph.get('index.ts')).toContain('engine/loop-engine.ts');
    // a type-only import counts
    expect(graph.get('session/observed-call.ts')).toContain('state/call-log.ts');
    expect(unresolved).toEqual([]);
  });

  it('should have no import cycle', () => {
    const found = cycles(graph).map((c) => `${c.length} files: ${cycleThrough(c, graph)}`);
    expect(found, `import cycles:\n${found.join('\n')}`).toEqual([]);
  });

  it('should place every file on a floor', () => {
    expect(files.filter((f) => floorOf(f) < 0)).toEqual([]);
  });

  it('should never import from a floor above', () => {
    const up: string[] = [];
    for (const [file, deps] of graph) {
      const mine = floorOf(file);
      for (const d of deps) {
        const theirs = floorOf(d);
        if (theirs > mine) up.push(`${file} (${FLOORS[mine]?.name}) -> ${d} (${FLOORS[theirs]?.name})`);
      }
    }
    expect(up, `imports up the floors:\n${up.join('\n')}`).toEqual([]);
  });

  it('should keep the folders that sit below others of their floor below them', () => {
    const up: string[] = [];
    for (const { from, never } of BELOW) {
      for (const [file, deps] of graph) {
        if (!file.startsWith(from)) continue;
        for (const d of deps) if (never.some((n) => d.startsWith(n))) up.push(`${file} -> ${d}`);
      }
    }
    expect(files.some((f) => f.startsWith('wire/'))).toBe(true);
    expect(up, `imports up from a lower folder:\n${up.join('\n')}`).toEqual([]);
  });
});
