/**
 * A status or prerequisite script re-run after the workspace changed is progress, as a test re-run after an
 * edit is. A Codex session of spec-kit's implement step (holdout2 019a2867) re-runs
 * `.specify/scripts/bash/check-prerequisites.sh --json --require-tasks --include-tasks` after each batch of
 * patches; it answers the same JSON each time (the feature's folder, the documents present), which is
 * neither a pass nor a failure, so it read as a reproduction script describing the same behaviour after
 * each edit: a state repeat, broken one-phase at its 4th run. Its answer is the state, which the patches
 * between changed. The runs are 20-40 calls apart, each after a stretch of reads: the check's earliest run
 * is no longer kept, and the kept part of the gap before the first kept run (reads only) was judged as a
 * whole gap. With two runs kept, the gaps between them are what is judged.
 *
 * The stuck twins still fire: the status check with only reads between, and a reproduction script
 * printing the same thing after each edit. Both engines, one- and two-phase.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { queriesStatus } from '../src/text/status-query.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const WORKDIR = '/Users/me/app';
const shell = (cmd: string, result: string): ToolEvent => ({ tool: 'shell', args: { command: ['bash', '-lc', cmd], workdir: WORKDIR }, result });
const patch = (file: string, i: number): ToolEvent => ({
  tool: 'apply_patch',
  args: `*** Begin Patch\n*** Update File: ${file}\n@@\n-const v${i} = ${i};\n+const v${i} = ${i + 1};\n*** End Patch`,
  result: `Success. Updated the following files:\nM ${file}\n`,
});

const PREREQS = shell(
  '.specify/scripts/bash/check-prerequisites.sh --json --require-tasks --include-tasks',
  '{"FEATURE_DIR":"/Users/me/app/specs/001-dual","AVAILABLE_DOCS":["research.md","data-model.md","contracts/","quickstart.md","tasks.md"]}\n',
);
const REPRO = shell('python3 reproduce.py', 'Default modules result: 4\nExpected: -4\n');

/** Distinct reads (each file's own lines, each a different tool's look). */
const reads = (from: number, n: number): ToolEvent[] =>
  Array.from({ length: n }, (_x, k) => {
    const i = from + k;
    return i % 2 === 0
      ? shell(`nl -ba src/part${i}.js | sed -n '1,${40 + i}p'`, `${i} function part${i}() { return ${i * 7}; }\n`)
      : shell(`rg "handler${i}" -n src`, `src/part${i}.js:${i}: export const handler${i} = () => ${i};\n`);
  });
/** Patches of `n` files, each its own change. */
const patches = (from: number, n: number): ToolEvent[] => Array.from({ length: n }, (_x, k) => patch(`src/part${from + k}.js`, from + k));

/** The check after each batch of patches, a few reads between (short gaps: every run kept). */
const afterEachBatch = (check: ToolEvent): ToolEvent[] => [0, 1, 2, 3, 4, 5].flatMap((b) => [...patches(b * 10, 2), ...reads(b * 10, 2), check]);

/**
 * The session's shape: the check, patches, then a long stretch of reads before each later run, so that the
 * first run and the patches after it are no longer kept when the third run comes.
 */
const SPACED: ToolEvent[] = [
  PREREQS,
  ...patches(0, 6),
  ...reads(100, 36),
  PREREQS,
  ...patches(10, 8),
  ...reads(200, 4),
  PREREQS,
  patch('specs/001-dual/tasks.md', 50),
  PREREQS,
  ...reads(300, 3),
];

describe('what asks for the state', () => {
  it('should read status and prerequisite scripts and status commands', () => {
    for (const c of [
      'bash -lc .specify/scripts/bash/check-prerequisites.sh --json --require-tasks --include-tasks',
      './scripts/status.sh',
      'bash scripts/check-env.sh',
      'python3 tools/check_env.py --quiet',
      'cd /repo && ./preflight.sh',
      'git status -sb',
      'git status --porcelain | head -20',
      'gh auth status',
      'flutter doctor -v',
      'pwsh -Command .specify/scripts/powershell/check-prerequisites.ps1 -Json',
    ]) expect(queriesStatus(c), c).toBe(true);
  });

  it('should not read reproduction scripts, tests, builds or chained commands as status queries', () => {
    for (const c of [
      'python reproduce.py',
      'python3 check_bug.py',
      './check.sh',
      'npm run check',
      'pytest tests/test_status.py',
      'git status && npm test',
      './scripts/status.sh; make build',
      'cat status.md',
      'rm -rf status',
      `${'x'.repeat(600)} git status`,
      '',
    ]) expect(queriesStatus(c), c).toBe(false);
  });
});

describe.each(ENGINES)('status checks re-run after the workspace changed (%s engine)', (engine) => {
  it('should not flag a prerequisite script re-run after each batch of patches, one- or two-phase', () => {
    const events = afterEachBatch(PREREQS);
    expect(flaggedActions(events, engine)).toEqual([]);
    expect(liveActions(events, engine)).toEqual([]);
  });

  it('should not flag it when its runs are far apart, each after a stretch of reads', () => {
    expect(flaggedActions(SPACED, engine)).toEqual([]);
    expect(liveActions(SPACED, engine)).toEqual([]);
  });

  it('should still flag the prerequisite script with only reads between', () => {
    const events = [0, 1, 2, 3, 4, 5].flatMap((b) => [...reads(b * 10, 3), PREREQS]);
    expect(flaggedActions(events, engine)).toContain('warn');
    expect(liveActions(events, engine)).toContain('warn');
  });

  it('should still break a reproduction script describing the same behaviour after each batch', () => {
    const events = afterEachBatch(REPRO);
    expect(flaggedActions(events, engine)).toContain('break');
    expect(liveActions(events, engine)).toContain('deny');
  });
});
