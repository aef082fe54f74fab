/**
 * Global setup of every vitest run: the run gets a temp folder of its own (TMPDIR, which the test workers
 * and every process they start inherit, so `os.tmpdir()` is that folder), and at the end the run fails
 * (exit code 1) naming each folder prefix a test left a `loopwatch-*` folder of, e.g. `loopwatch-cli-` (3).
 * The run's folder is then removed, whatever it holds. A run's own folder keeps other runs on the machine
 * (other clones' tests) out of the count. Tests make their folders with test/helpers/temp-folder.ts, which
 * removes them when their file ends (test/setup/temp-cleanup.ts). Vitest runs a global setup once per
 * project as well as for the root: only the first makes the run's folder (LOOPWATCH_TEST_RUN names it, while it
 * is TMPDIR), the others find it and do nothing, so there is one run folder, not one inside another.
 * XDG_STATE_HOME is set to a folder inside it too: a test that starts `loopwatch serve` or a hook without
 * naming its state writes its token or state files there, never into the user's own ~/.local/state (a
 * serve test that forgot --no-token once made a real serve.token there). XDG_CACHE_HOME likewise: the hook
 * processes' V8 code cache (src/cli/code-cache.ts) is written there, once per run as on a fresh CI machine,
 * not into ~/.cache/loopwatch/hook-code, where every clone's run used to leave a ~0.7 MB cache of its own.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `loopwatch-*` names by their prefix (the name without mkdtemp's 6-character suffix), with counts. */
export function leftoverPrefixes(names: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const name of names) {
    if (!name.startsWith('loopwatch-')) continue;
    const prefix = /^(.*-)[A-Za-z0-9]{6}$/.exec(name)?.[1] ?? name;
    out.set(prefix, (out.get(prefix) ?? 0) + 1);
  }
  return out;
}

/** The message for leftovers (empty when there are none). */
export function leftoverMessage(left: ReadonlyMap<string, number>): string {
  if (left.size === 0) return '';
  const list = [...left].map(([prefix, n]) => `${prefix}* (${n})`).join(', ');
  return `\nTEMP FOLDERS LEFT BEHIND by the tests: ${list}. Find the test that makes folders with that prefix and have it remove them (test/helpers/temp-folder.ts does).\n`;
}

/** The run's temp folder, and TMPDIR before it (null in a setup that found the run's folder made). */
let run: { dir: string; previous: string | undefined; stateHome: string | undefined; cacheHome: string | undefined } | null = null;

/** Before the run: a temp folder of its own, as TMPDIR (once: a second setup in the same run does nothing). */
export function setup(): void {
  // a vitest run started by a test (temp-folders-left-behind) sets a TMPDIR of its own: a run of its own
  if (process.env.LOOPWATCH_TEST_RUN !== undefined && process.env.LOOPWATCH_TEST_RUN === process.env.TMPDIR) return;
  run = { dir: mkdtempSync(join(tmpdir(), 'loopwatch-test-run-')), previous: process.env.TMPDIR, stateHome: process.env.XDG_STATE_HOME, cacheHome: process.env.XDG_CACHE_HOME };
  process.env.TMPDIR = run.dir;
  process.env.XDG_STATE_HOME = join(run.dir, 'state-home');
  process.env.XDG_CACHE_HOME = join(run.dir, 'cache-home');
  process.env.LOOPWATCH_TEST_RUN = run.dir;
}

/** After the run: fails it naming what tests left behind, and removes the run's folder. */
export function teardown(): void {
  if (run === null) return;
  const message = leftoverMessage(leftoverPrefixes(readdirSync(run.dir)));
  delete process.env.LOOPWATCH_TEST_RUN;
  if (run.previous === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = run.previous;
  if (run.stateHome === undefined) delete process.env.XDG_STATE_HOME;
  else process.env.XDG_STATE_HOME = run.stateHome;
  if (run.cacheHome === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = run.cacheHome;
  rmSync(run.dir, { recursive: true, force: true });
  run = null;
  if (message !== '') {
    process.stderr.write(message);
    process.exitCode = 1;
  }
}
