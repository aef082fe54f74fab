/** Helpers of the trace-reader tests: a temporary folder to write inputs in, and every item read back. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ReadInputsOptions, readInputs } from '../../src/formats/read-inputs.js';
import type { TraceInputEnd, TraceItem } from '../../src/formats/trace-record.js';
import { tempFolder } from './temp-folder.js';

/** Every item `readInputs` yields for `paths`, but the `input-end` after each input (see {@link collectAll}). */
export async function collect(paths: string[], options: ReadInputsOptions = {}): Promise<Exclude<TraceItem, TraceInputEnd>[]> {
  return (await collectAll(paths, options)).filter((i): i is Exclude<TraceItem, TraceInputEnd> => i.kind !== 'input-end');
}

/** Every item `readInputs` yields for `paths`. */
export async function collectAll(paths: string[], options: ReadInputsOptions = {}): Promise<TraceItem[]> {
  const out: TraceItem[] = [];
  for await (const item of readInputs(paths, options)) out.push(item);
  return out;
}

/**
 * A fresh temporary folder (`loopwatch-<name>-...`) and a function writing a file into it (sub-folders
 * made as needed), returning its path.
 */
export function scratchDir(name: string): { dir: string; write: (file: string, content: string | Buffer) => string } {
  const dir = tempFolder(name);
  return {
    dir,
    write: (file, content) => {
      const path = join(dir, file);
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, content);
      return path;
    },
  };
}
