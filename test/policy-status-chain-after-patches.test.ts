/**
 * A chained status check re-run after each commit of new patches is no loop (quiet5; a real Codex session of
 * holdout3, broken one-phase at #77): after each feature the agent patched files with `applypatch << 'PATCH'`
 * (as older Codex models wrote the patch tool through the shell), committed them, then ran `git status -s &&
 * git rev-parse --abbrev-ref HEAD && git remote -v` and committed its own session log, the same answer every
 * time (only the log modified). Two readings were missing: `applypatch` was no shell write (only
 * `apply_patch` was), so nothing seemed to change between the checks; and a status query followed by `git
 * rev-parse` and `git remote -v` was no status query (nothing may run after one), so the same answer was a
 * behaviour the work did not change. Both are read now (src/policy/workspace-changes.ts SHELL_WRITES,
 * src/text/status-query.ts STATE_INFO). The stuck twin still fires: the same check with nothing done between.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { changesWorkspace } from '../src/policy/workspace-changes.js';
import { queriesStatus } from '../src/text/status-query.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const sh = (command: string, out: string): ToolEvent => ({ tool: 'shell', args: { command: ['bash', '-lc', command] }, result: out });
const STATUS = 'git status -s && git rev-parse --abbrev-ref HEAD && git remote -v';
const LOG = '.codex/sessions/2025/09/07/rollout-2025-09-07T06-02-51.jsonl';
const status = (): ToolEvent => sh(STATUS, ` M ${LOG}\nmain\norigin\tgit@github.com:acme/world-time.git (fetch)\norigin\tgit@github.com:acme/world-time.git (push)\n`);
const patch = (file: string, n: number): ToolEvent =>
  sh(`applypatch << 'PATCH'\n*** Begin Patch\n*** Update File: ${file}\n@@\n-const zoom = ${n - 1};\n+const zoom = ${n};\n*** End Patch\nPATCH`, `Success. Updated the following files:\nM ${file}\n`);
const commit = (message: string, files: string, n: number): ToolEvent =>
  sh(`git add ${files} && git commit -m "${message}" && git push`, `[main ${(0xabc000 + n).toString(16)}] ${message}\n 2 files changed, ${n} insertions(+)\nTo github.com:acme/world-time.git\n`);

/** Each feature: patches of two files, a commit, the status check, a commit of the session log. */
const features: ToolEvent[] = [1, 2, 3, 4, 5, 6].flatMap((n) => [
  sh(`rg -n "feature${n}" scripts/app.js`, `${100 * n}: // feature${n}\n`),
  patch('scripts/app.js', 10 * n),
  patch('styles.css', 10 * n + 1),
  commit(`feat: map feature ${n}`, 'scripts/app.js styles.css', n),
  status(),
  commit('chore: update Codex session logs', '-A', 100 + n),
]);

/** The same check again and again, only the same read between. */
const stuck: ToolEvent[] = Array.from({ length: 6 }, () => [sh('rg -n "feature1" scripts/app.js', '100: // feature1\n'), status()]).flat();

describe.each(ENGINES)('a chained status check after each commit of patches (%s engine)', (engine) => {
  it('should not break the session, one-phase', () => {
    expect(flaggedActions(features, engine)).not.toContain('break');
  });

  it('should not block the check, two-phase', () => {
    expect(liveActions(features, engine)).not.toContain('deny');
  });

  it('should still break the same check with nothing done between', () => {
    expect(flaggedActions(stuck, engine)).toContain('break');
  });
});

describe('the readings', () => {
  it('should read applypatch through the shell as a change', () => {
    expect(changesWorkspace('shell', { command: ['bash', '-lc', "applypatch << 'PATCH'\n*** Begin Patch\n*** Update File: a.js\n*** End Patch\nPATCH"] })).toBe(true);
  });

  it('should read a status query followed by reports of where the work stands as a status query', () => {
    expect(queriesStatus(STATUS)).toBe(true);
    expect(queriesStatus(`bash -lc "${STATUS}"`)).toBe(true);
    expect(queriesStatus('git status --short && git branch --show-current && git log -3 --oneline')).toBe(true);
    expect(queriesStatus('git status -s; pwd')).toBe(true);
  });

  it('should not read a status query followed by other work as one', () => {
    expect(queriesStatus('git status -s && git add -A && git commit -m "x"')).toBe(false);
    expect(queriesStatus('git status -s && git rev-parse --abbrev-ref HEAD && npm test')).toBe(false);
    expect(queriesStatus('git status && git remote add origin git@github.com:a/b.git')).toBe(false);
    expect(queriesStatus('git status && git log')).toBe(false);
  });
});
