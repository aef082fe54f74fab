/**
 * Loading the hook command fast. A hook is a new Node process on every tool call, so what it costs to get
 * the code running counts as much as the check itself (docs/hooks.md, Speed). Two things cut it:
 *
 * - one file: `npm run build` bundles the hook command into `dist/hook/hook.cjs` (scripts/build-hook.mjs),
 *   so there is no module graph to resolve and load;
 * - V8's code cache: the bundle is compiled with `vm.Script` and the cached data of an earlier run, which
 *   holds the bytecode of every function that run compiled (Node 20 has no compile cache for modules;
 *   `module.enableCompileCache` comes with Node 22). The cache is written after the first run, per Node
 *   version and bundle (size and time), in the state directory's `.cache/`. V8 rejects a cache made by
 *   another V8 and the bundle is then compiled as usual (and the cache written again).
 *   `LOOPWATCH_HOOK_CODE_CACHE=off` turns it off.
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { hookStateDir, stateDirArg } from '../hooks/state-dir.js';
import type { HookIo } from './hook-io.js';

/** The hook command's module, as the bundle exports it. */
interface HookExports {
  hookCommand(args: readonly string[], io: HookIo): Promise<number>;
}

const CACHE_PREFIX = 'hook-';

/** Set to `off`, the bundle is compiled from source every time (no cache read or written). */
export const CODE_CACHE_ENV = 'LOOPWATCH_HOOK_CODE_CACHE';

/** Writes the code cache (replacing caches of other versions); a failure only costs the next run some time. */
function saveCache(dir: string, path: string, data: Buffer): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const name of readdirSync(dir)) if (name.startsWith(CACHE_PREFIX) && join(dir, name) !== path) unlinkSync(join(dir, name));
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, path);
  } catch {
    // an unwritable state directory: runs compile the bundle each time
  }
}

/**
 * Runs the hook command from the bundle at `bundle` with the code cache; resolves to its exit code, or to
 * null when there is no bundle (a checkout that was not built with `npm run build`).
 */
export async function runHookBundle(bundle: string, args: readonly string[], io: HookIo): Promise<number | null> {
  let size: number;
  let mtime: number;
  try {
    const s = statSync(bundle);
    size = s.size;
    mtime = Math.trunc(s.mtimeMs);
  } catch {
    return null;
  }
  const source = readFileSync(bundle, 'utf8');
  const cacheDir = join(hookStateDir(stateDirArg(args)), '.cache');
  const cachePath = join(cacheDir, `${CACHE_PREFIX}${process.version}-${process.arch}-${size}-${mtime}.v8`);
  const useCache = process.env[CODE_CACHE_ENV] !== 'off';
  let cached: Buffer | undefined;
  try {
    cached = useCache ? readFileSync(cachePath) : undefined;
  } catch {
    cached = undefined;
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundle, cachedData: cached });
  const module = { exports: {} as HookExports };
  (script.runInThisContext() as (...a: unknown[]) => void)(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  const code = await module.exports.hookCommand(args, io);
  if (useCache && (cached === undefined || script.cachedDataRejected === true)) saveCache(cacheDir, cachePath, script.createCachedData());
  return code;
}
