/**
 * A package manager's removal changes the environment as its install does (quiet34, s25). holdout 019c7839: a
 * person asks Codex to uninstall a CLI; it looks (`which -a opencode`: two paths under ~/.bun/bin), tries
 * `bun remove -g opencode` (refused, then "done" with nothing removed: the package is named otherwise), looks
 * again (still there), finds the package's name, `bun remove -g opencode-ai` ("1 package removed"), and looks
 * a third time ("opencode not found"). Two-phase warned the third look at its proposal as the same call three
 * times in fourteen (frequency): `npm install` was read as a change of the workspace, `bun remove` was not, so
 * the looks had nothing but looks between, and `which` was read as neither a pass nor a report of the state. Now
 * a removal is a change as an install is (workspace-changes.ts), and `which` a look at the environment
 * (world-look.ts; `|| true` after a status query leaves its answer the query's: status-query.ts), so a look
 * after each removal looks at a changed environment. The same
 * look again and again with nothing done between still warns. Both engines.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { changesWorkspace } from '../src/policy/workspace-changes.js';
import { queriesStatus } from '../src/text/status-query.js';
import { ENGINES, liveActions, flaggedActions } from './helpers/verdicts.js';

const sh = (cmd: string, result: string): ToolEvent => ({ tool: 'exec_command', args: { cmd }, result });
const WHICH = 'which -a opencode 2>/dev/null || true';
const FOUND = '/Users/ana/.bun/bin/opencode\n/Users/ana/.bun/bin/opencode\n';

/** 019c7839 #0-#13, in its shape. */
const removal: ToolEvent[] = [
  sh("brew list --formula | rg -i 'opencode' || true", ''),
  sh("bun pm ls -g 2>/dev/null | rg -i 'opencode' || true", ''),
  sh(WHICH, FOUND),
  sh('bun remove -g opencode || true', 'PermissionDenied: could not open "/Users/ana/.bun/install/global/package.json"\n'),
  sh('brew uninstall --formula opencode || true', 'Error: No such keg: /opt/homebrew/Cellar/opencode\n'),
  sh('bun remove -g opencode', 'bun remove v1.3.8 (b64edcb4)\nSaved lockfile\n\n[40.00ms] done\n'),
  sh(WHICH, FOUND),
  sh('ls -l ~/.bun/bin/opencode 2>/dev/null || true', 'lrwxrwxrwx 1 ana staff 55 /Users/ana/.bun/bin/opencode -> ../install/global/node_modules/opencode-ai/bin/opencode\n'),
  sh('ls -d ~/.bun/install/global/node_modules/opencode-ai 2>/dev/null || true', '/Users/ana/.bun/install/global/node_modules/opencode-ai\n'),
  sh('bun remove -g opencode-ai', 'bun remove v1.3.8 (b64edcb4)\nSaved lockfile\n\n- opencode-ai\n1 package removed [8.00ms]\n'),
  sh(WHICH, 'opencode not found\n'),
];

/** The same look again and again, only other looks between. */
const looking: ToolEvent[] = [sh(WHICH, FOUND), sh('ls -l ~/.bun/bin', 'opencode\n'), sh(WHICH, FOUND), sh('ls -d ~/.bun/install', '/Users/ana/.bun/install\n'), sh(WHICH, FOUND), sh('ls ~/.bun', 'bin\ninstall\n'), sh(WHICH, FOUND)];

describe('package managers that change the environment', () => {
  it('should read installs and removals alike', () => {
    for (const cmd of ['npm install zod', 'npm uninstall -g typescript', 'pnpm remove lodash', 'yarn remove react', 'bun remove -g opencode-ai', 'bun add hono', 'pip uninstall -y requests', 'uv remove httpx', 'poetry remove black', 'cargo remove serde']) {
      expect(changesWorkspace('exec_command', { cmd }), cmd).toBe(true);
    }
    for (const cmd of ['npm ls -g', 'bun pm ls -g', 'pip show requests', 'which -a opencode', 'bun run build']) expect(changesWorkspace('exec_command', { cmd }), cmd).toBe(false);
  });
});

describe('where the shell finds a program', () => {
  it('should be a look at the environment, alone or with its exit status made 0', () => {
    for (const cmd of ['which -a opencode', 'which node', 'which -a opencode 2>/dev/null || true', 'git status --short || true']) expect(queriesStatus(cmd), cmd).toBe(true);
    for (const cmd of ['which', 'which node && node build.js', 'which -a opencode || bun remove -g opencode-ai']) expect(queriesStatus(cmd), cmd).toBe(false);
  });
});

describe.each(ENGINES)('a look after each removal (%s engine)', (engine) => {
  it('should not warn the look after the package was removed, one- or two-phase', () => {
    expect(flaggedActions(removal, engine)).toEqual([]);
    expect(liveActions(removal, engine, { labelled: true })).toEqual([]);
  });

  it('should still warn the same look again and again with nothing done between', () => {
    expect(liveActions(looking, engine).length).toBeGreaterThan(0);
  });
});
