/**
 * Loading the hook command fast. A hook is a new Node process on every tool call, so what it costs to get
 * the code running counts as much as the check itself (docs/hooks.md, Speed). Two things cut it:
 *
 * - one file: `npm run build` bundles the hook command into `dist/hook/hook.cjs` (scripts/build-hook.mjs),
 *   so there is no module graph to resolve and load;
 * - V8's code cache: the bundle is compiled with `vm.Script` and the cached data of an earlier run, which
 *   holds the bytecode of every function that run compiled (Node 20 has no compile cache for modules;
 *   `module.enableCompileCache` comes with Node 22). The cache is written after the first run, per install,
 *   Node version and bundle (size and time), in a folder of the user's own (code-cache.ts), and read only
 *   when it and its folder are private to the user. V8 rejects a cache made by another V8 and the bundle is
 *   then compiled as usual (and the cache written again). `LOOPWATCH_HOOK_CODE_CACHE=off` turns it off.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';
import { codeCacheDir, codeCachePath, codeWrapper, readCodeCache, saveCodeCache } from './code-cache.js';
import type { HookIo } from './hook-io.js';

/** The hook command's module, as the bundle exports it. */
interface HookExports {
  hookCommand(args: readonly string[], io: HookIo): Promise<number>;
}

/** Set to `off`, the bundle is compiled from source every time (no cache read or written). */
export const CODE_CACHE_ENV = 'LOOPWATCH_HOOK_CODE_CACHE';

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
  const dir = codeCacheDir();
  const cache = process.env[CODE_CACHE_ENV] === 'off' ? null : readCodeCache(codeCachePath(dir, bundle, size, mtime), dir);
  if (cache?.refused !== undefined) io.stderr.write(`loopwatch hook: ${cache.refused.replace(/\s+/g, ' ')}\n`);
  const script = new Script(codeWrapper(source), { filename: bundle, cachedData: cache?.data });
  const module = { exports: {} as HookExports };
  (script.runInThisContext() as (...a: unknown[]) => void)(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  const code = await module.exports.hookCommand(args, io);
  if (cache !== null && (cache.data === undefined || script.cachedDataRejected === true)) saveCodeCache(cache, dir, script.createCachedData());
  return code;
}
