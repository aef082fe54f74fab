/**
 * A dead end's wall is the program that failed, not the shell tool (issue 27; src/live/dead-end-wall.ts):
 * every shell call is one tool, so a Claude Code subagent that ran `git log` and `git status` three times
 * each against "not a git repository" (rightly warned) was then denied its next call, `ls -la .claude/`,
 * the call that leaves the loop (a real holdout session). The wall now stops only a command running the
 * program the failed calls ran.
 */
import { describe, expect, it } from 'vitest';
import { CONFIG_PRESETS, LoopDetector } from '../src/index.js';
import type { LiveCall, LiveDecision, LoopDetectorOptions } from '../src/index.js';
import { commandProgram } from '../src/text/command-program.js';

/** What Claude Code's Bash tool answered each git command outside a repository (as the session shows it). */
const NOT_A_REPO = 'Exit code 128\nfatal: not a git repository (or any of the parent directories): .git\n\nNow using node v18.20.5 (npm v10.8.2)';

/** A Bash call the way Claude Code records it: the command and the model's description of it. */
const bash = (command: string, description: string, outcome: { result?: string; error?: string }): LiveCall => ({ tool: 'Bash', args: { command, description }, ...outcome });

/** The session's six git calls, two a model turn (`git log` and `git status` together), each failing the same way. */
const GIT: readonly (readonly LiveCall[])[] = [
  [bash('git log --oneline', 'Show git commit history', { error: NOT_A_REPO }), bash('git status', 'Show current git status', { error: NOT_A_REPO })],
  [bash('git log --oneline', 'Show git commit history from project directory', { error: NOT_A_REPO }), bash('git status', 'Show git status from project directory', { error: NOT_A_REPO })],
  [bash('git log --oneline', 'Show git commit history', { error: NOT_A_REPO }), bash('git status', 'Show git status', { error: NOT_A_REPO })],
];

/** Work before the git calls: listings and reads that succeed, one a turn. */
const BEFORE: readonly (readonly LiveCall[])[] = [
  [bash('find /home/u/repos/finance -maxdepth 2 -type f -name "*.py"', 'Find Python files', { result: 'Now using node v18.20.5 (npm v10.8.2)\n./main.py\n./test_setup.py' })],
  [{ tool: 'Read', args: { file_path: '/home/u/repos/finance/requirements.txt' }, result: '1→annotated-types==0.7.0\n2→pydantic==2.9.2' }],
  [bash('head -100 /home/u/repos/finance/data/export.qif', 'Show the export', { result: 'Now using node v18.20.5 (npm v10.8.2)\n!Type:Bank\nD01/02/2024\nT-42.00' })],
];

/** The call that leaves the loop, in a turn of its own. */
const LEAVE: readonly (readonly LiveCall[])[] = [
  [bash('ls -la /home/u/repos/finance/.claude/', 'List the .claude folder', { result: 'Now using node v18.20.5 (npm v10.8.2)\ntotal 12\ndrwxr-xr-x 2 u u 4096 Jan  9 12:58 .\n-rw-r--r-- 1 u u  210 Jan  9 12:58 settings.local.json' })],
];

/**
 * Runs model turns as a host does: each turn's calls proposed together (round = the turn), then the allowed
 * ones recorded; returns every proposal's decision in order.
 */
function run(d: LoopDetector, turns: readonly (readonly LiveCall[])[]): LiveDecision[] {
  const out: LiveDecision[] = [];
  let id = 0;
  turns.forEach((turn, round) => {
    const allowed: LiveCall[] = [];
    for (const call of turn) {
      const c = { ...call, id: `c${id++}`, round };
      const decision = d.propose(c);
      out.push(decision);
      if (decision.action !== 'deny' && decision.action !== 'stop') allowed.push(c);
    }
    for (const c of allowed) d.record(c);
  });
  return out;
}

describe.each(['wasm', 'reference'] as const)('a dead end of one program, left by another (%s engine)', (engine) => {
  describe.each([
    ['the shipped default', (): LoopDetectorOptions => (CONFIG_PRESETS.default as (e: LoopDetectorOptions) => LoopDetectorOptions)({ engine })],
    ['the built-in options', (): LoopDetectorOptions => ({ engine })],
  ])('%s', (_name, options) => {
    it('should allow `ls` after six `git` calls failing "not a git repository"', () => {
      const d = new LoopDetector(options(), 's');
      try {
        const actions = run(d, [...BEFORE, ...GIT, ...LEAVE]).map((x) => x.action);
        // the git calls may be warned about; none of them, nor the `ls` that leaves them, is stopped
        expect(actions.slice(0, BEFORE.length)).toEqual(['allow', 'allow', 'allow']);
        expect(actions.at(-1)).toBe('allow');
        expect(actions.filter((a) => a === 'deny' || a === 'stop')).toEqual([]);
      } finally {
        d.dispose();
      }
    });

    it('should still meet the wall with another git command after the same failures', () => {
      // a seventh and an eighth git call, both failing: the wall is reached by running git again
      const d = new LoopDetector(options(), 's');
      try {
        const more = [[bash('git log -5', 'Show the last commits', { error: NOT_A_REPO })], [bash('git branch -a', 'List branches', { error: NOT_A_REPO })], [bash('git remote -v', 'Show remotes', { error: NOT_A_REPO })]];
        const decisions = run(d, [...BEFORE, ...GIT, ...more]);
        const walls = decisions.filter((x) => x.verdict?.signals.some((s) => s.detector === 'dead_end_again') === true);
        expect(walls.length).toBeGreaterThan(0);
      } finally {
        d.dispose();
      }
    });
  });
});

describe('a dead end of one program in a restored session', () => {
  it('should keep the programs of the failed calls in the snapshot: ls allowed, git met by the wall', () => {
    const options: LoopDetectorOptions = { engine: 'wasm' };
    const d = new LoopDetector(options, 's');
    const other = new LoopDetector(options, 's');
    const same = new LoopDetector(options, 's');
    try {
      // the failing git calls one a turn, so the wall stands before the next proposal
      const gits = [...GIT.flat(), bash('git log -5', 'Show the last commits', { error: NOT_A_REPO })].map((c) => [c]);
      run(d, [...BEFORE, ...gits]);
      const snap = d.snapshot();
      other.restore(snap);
      same.restore(snap);
      const leave = other.propose({ ...(LEAVE[0]?.[0] as LiveCall), id: 'leave' });
      expect(leave.verdict?.signals.map((s) => s.detector) ?? []).not.toContain('dead_end_again');
      const again = same.propose({ ...bash('git branch -a', 'List branches', { error: NOT_A_REPO }), id: 'again' });
      expect(again.verdict?.signals.map((s) => s.detector) ?? []).toContain('dead_end_again');
    } finally {
      d.dispose();
      other.dispose();
      same.dispose();
    }
  });
});

describe('the program of a shell command', () => {
  it('should name the program past wrappers, and a runner with its program', () => {
    expect(commandProgram('git log --oneline')).toBe('git');
    expect(commandProgram("bash -lc 'cd /repo && FOO=1 sudo /usr/bin/git status'")).toBe('git');
    expect(commandProgram('cd src; ls -la .claude/')).toBe('ls');
    expect(commandProgram('timeout 30 env -i PATH=/bin pytest -x')).toBe('pytest');
    expect(commandProgram('npx tsc --noEmit')).toBe('npx tsc');
    expect(commandProgram('uv run pytest tests/')).toBe('uv pytest');
    expect(commandProgram('   ')).toBeUndefined();
  });
});
