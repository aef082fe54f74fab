/**
 * `npm pack` of the built tree (no scripts: npm test has built dist/) once per vitest run, shared by the
 * test files that install the tarball (package-commonjs-and-types, package-optional-peers,
 * hook-install-global): a pack is ~3.3 CPU-s, and took 40 s of wall time at a load of 25. It is kept in the
 * run's temp folder (LOOPWATCH_TEST_RUN: test/setup/temp-folders.ts makes it and removes it when the run
 * ends), in `packed-tarball/`. The first file to ask packs it, holding a lock file; a file asking meanwhile
 * waits for it (or for its error). Each file still unpacks the tarball into a folder of its own. Outside
 * such a run (no LOOPWATCH_TEST_RUN) it packs into a temp folder removed when the file ends.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempFolder } from './temp-folder.js';

/** This repository's root. */
const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** Longest a file waits for another file's pack: npm pack took 40 s at a load of 25. */
const WAIT_MS = 180_000;

/** The packed tarball. */
export interface PackedTarball {
  /** The tarball's path. */
  readonly path: string;
  /** The files in it, as `npm pack --json` lists them. */
  readonly files: readonly string[];
}

/** `npm pack --json`'s answer for the repository, packed into `dir`. */
function pack(dir: string): string {
  return execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: REPO, encoding: 'utf8' });
}

/** The tarball from `npm pack`'s JSON answer, packed into `dir`. */
function tarball(dir: string, json: string): PackedTarball {
  const packed = (JSON.parse(json) as { filename: string; files: { path: string }[] }[])[0]!;
  return { path: join(dir, packed.filename), files: packed.files.map((f) => f.path) };
}

/** Blocks the thread for `ms` without spinning a core. */
const sleep = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** The repository packed once for this vitest run (see the file's header). */
export function packedTarball(): PackedTarball {
  const run = process.env.LOOPWATCH_TEST_RUN;
  if (run === undefined || run === '' || !existsSync(run)) {
    const dir = tempFolder('tarball');
    return tarball(dir, pack(dir));
  }
  const dir = join(run, 'packed-tarball');
  const answer = join(dir, 'pack.json');
  const failed = join(dir, 'pack.error');
  mkdirSync(dir, { recursive: true });
  let lock: number | null = null;
  try {
    lock = openSync(join(dir, 'lock'), 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  if (lock !== null) {
    closeSync(lock);
    try {
      const json = pack(dir);
      writeFileSync(`${answer}.part`, json);
      renameSync(`${answer}.part`, answer);
    } catch (e) {
      writeFileSync(failed, String((e as Error).message));
      throw e;
    }
  }
  for (const until = Date.now() + WAIT_MS; !existsSync(answer); sleep(100)) {
    if (existsSync(failed)) throw new Error(`npm pack failed in another test file: ${readFileSync(failed, 'utf8')}`);
    if (Date.now() > until) throw new Error(`npm pack: no tarball in ${dir} after ${WAIT_MS / 1000} s (another test file holds ${join(dir, 'lock')})`);
  }
  return tarball(dir, readFileSync(answer, 'utf8'));
}
