/**
 * The package as a user installs it: `npm pack` of the built tree (no scripts: npm test has built dist/;
 * packed once per run, helpers/packed-tarball.ts), unpacked into `<app>/node_modules/loopwatch`, with its runtime dependencies beside it as npm would put
 * them (links to this repository's copies) and, when asked, its optional peer dependencies too (npm
 * installs an optional peer only when the user installs it). Made in a temp folder removed by `remove()`.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packedTarball } from './packed-tarball.js';

/** This repository's root. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** package.json as the tests read it. */
export interface Manifest {
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  readonly scripts?: Record<string, string>;
  readonly sideEffects?: boolean | string[];
  readonly [key: string]: unknown;
}

/** An installed copy of the packed package. */
export interface PackedInstall {
  /** The app folder (its node_modules holds loopwatch and what was installed beside it). */
  readonly app: string;
  /** `<app>/node_modules/loopwatch`. */
  readonly pkgDir: string;
  /** The files in the tarball, as `npm pack` lists them. */
  readonly files: readonly string[];
  /** The packed package.json. */
  readonly manifest: Manifest;
  /** The packages installed beside loopwatch (top level of `<app>/node_modules`, loopwatch left out). */
  readonly installed: readonly string[];
  /** Runs node with `args` in the app folder. */
  node(args: readonly string[], input?: string, env?: NodeJS.ProcessEnv): SpawnSyncReturns<string>;
  /** Removes the app folder. */
  remove(): void;
}

/** Packs the repository and installs the tarball into a new app folder (`peers`: its optional peers too). */
export function installPacked(options: { peers: boolean }): PackedInstall {
  const app = mkdtempSync(join(tmpdir(), 'loopwatch-package-'));
  try {
    const packed = packedTarball();
    execFileSync('tar', ['-xzf', packed.path, '-C', app]);
    mkdirSync(join(app, 'node_modules'));
    const pkgDir = join(app, 'node_modules', 'loopwatch');
    renameSync(join(app, 'package'), pkgDir);
    const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as Manifest;
    const installed = [...Object.keys(manifest.dependencies ?? {}), ...(options.peers ? Object.keys(manifest.peerDependencies ?? {}) : [])];
    for (const d of installed) {
      mkdirSync(dirname(join(app, 'node_modules', d)), { recursive: true });
      symlinkSync(join(REPO, 'node_modules', d), join(app, 'node_modules', d));
    }
    return {
      app,
      pkgDir,
      files: packed.files,
      manifest,
      installed,
      node: (args, input, env) => spawnSync(process.execPath, args, { cwd: app, encoding: 'utf8', input: input ?? '', timeout: 150_000, ...(env === undefined ? {} : { env }) }),
      remove: () => rmSync(app, { recursive: true, force: true }),
    };
  } catch (e) {
    rmSync(app, { recursive: true, force: true });
    throw e;
  }
}
