/**
 * A failed call retried after other work is a fresh attempt, not a loop going round (issue 27;
 * src/live/evidence.ts): a Gemini CLI session's `replace` failed twice ("0 occurrences found"), then the
 * agent committed, pushed and polled CI, and 11 calls later tried the same replace again; the ladder stood
 * high from the polls, and the same call having failed was evidence enough to deny it (a real devset
 * session, its only break). The same call's runs are evidence only when its latest run is within the
 * policy's cooldown of the proposal; a replace tried again right after failing is still blocked.
 */
import { describe, expect, it } from 'vitest';
import { CONFIG_PRESETS, LoopDetector } from '../src/index.js';
import type { LiveCall, LiveDecision, LoopDetectorOptions } from '../src/index.js';
import { retriedAfter } from '../src/live/evidence.js';
import { CallHistory, OutcomeFlag } from '../src/state/call-history.js';

const FILE = 'C:\\Users\\dev\\dashboard\\.github\\workflows\\ci-cd.yml';
const YAML = 'name: CI/CD\r\n\r\non:\r\n  push:\r\n    branches: [ main ]\r\njobs:\r\n  deploy-preview:\r\n    runs-on: ubuntu-latest\r\n';

const read: LiveCall = { tool: 'read_file', args: { file_path: '.github/workflows/ci-cd.yml' }, result: YAML };
/** The replace the agent tried again and again; its old_string (LF line ends) is not in the CRLF file. */
const replace: LiveCall = {
  tool: 'replace',
  args: { file_path: FILE, instruction: 'Use JSON.parse instead of eval in both deploy jobs', old_string: 'name: CI/CD\n\non:\n  push:', new_string: 'name: CI/CD\n\non:\n  push:\n', expected_replacements: 2 },
  error: `Failed to edit, 0 occurrences found for old_string in ${FILE}. No edits made. The exact text in old_string was not found.`,
};
const shell = (command: string, output: string): LiveCall => ({ tool: 'run_shell_command', args: { command, description: `Run ${command.split(' ')[0]}` }, result: `Output: ${output}` });
const RUNS = (conclusion: string): string => `[ { "conclusion": "${conclusion}", "databaseId": 22308939669, "name": "CI/CD", "status": "${conclusion === '' ? 'in_progress' : 'completed'}" } ]`;
const poll = (conclusion: string): LiveCall => shell('gh run list --branch dev --json status,conclusion,databaseId,name --limit 1', RUNS(conclusion));

/** A round of CI: commit, push, polls until it fails, the failed job's log. */
const ciRound = (n: number): LiveCall[] => [
  shell('git status', `On branch dev\nChanges not staged for commit:\n  modified: .github/workflows/ci-cd.yml (${n})`),
  shell('git add .github/workflows/ci-cd.yml', '(empty)'),
  shell(`git commit -m "fix: attempt ${n}"`, `[dev a51bf2${n}] fix: attempt ${n}\n 1 file changed`),
  shell('git push', `To github.com:me/dashboard.git\n   3111f8${n}..a51bf2${n}  dev -> dev`),
  poll(''),
  poll(''),
  poll(''),
  poll(''),
  poll('failure'),
  shell(`gh run view 2230893966${n} --log-failed`, `Deploy Preview (PR)  Create .env  SyntaxError: Unexpected token (attempt ${n})`),
];

/** Proposes then records each call (ids `c<i>`), a blocked one not recorded; the proposals' decisions. */
function run(d: LoopDetector, calls: readonly LiveCall[]): LiveDecision[] {
  const out: LiveDecision[] = [];
  for (const [i, call] of calls.entries()) {
    const proposal = d.propose({ ...call, id: `c${i}` });
    out.push(proposal);
    if (proposal.action === 'deny' || proposal.action === 'stop') break;
    d.record({ ...call, id: `c${i}` });
  }
  return out;
}

describe.each(['wasm', 'reference'] as const)('a failed call retried after other work (%s engine)', (engine) => {
  const options = (): LoopDetectorOptions => (CONFIG_PRESETS.default as (e: LoopDetectorOptions) => LoopDetectorOptions)({ engine });

  it('should not deny the replace tried again 11 calls after it failed twice, the ladder high from CI polls', () => {
    const d = new LoopDetector(options(), 's');
    try {
      const calls = [...ciRound(1), ...ciRound(2), read, replace, read, replace, ...ciRound(3), replace];
      const decisions = run(d, calls);
      expect(decisions).toHaveLength(calls.length);
      expect(decisions.map((x) => x.action)).not.toContain('deny');
      // still told: the replace failed the same way twice
      expect(decisions.at(-1)?.action).toBe('warn');
    } finally {
      d.dispose();
    }
  });

  it('should still deny the replace tried again within the cooldown, the ladder as high', () => {
    // three polls between the failures and the retry: the same call's failures are recent evidence
    const d = new LoopDetector(options(), 's');
    try {
      const decisions = run(d, [...ciRound(1), ...ciRound(2), read, replace, read, replace, poll(''), poll(''), poll(''), replace]);
      expect(decisions.at(-1)?.action).toBe('deny');
    } finally {
      d.dispose();
    }
  });
});

describe('a retry after other work', () => {
  it('should be a run of the same call more than the span back, none within it', () => {
    const h = new CallHistory(64);
    // calls 0..11: call 0 is A (failed), 1..10 others, 11 is A proposed
    for (let i = 0; i < 12; i++) {
      const s = h.advance();
      h.sig[h.slot(s)] = i === 0 || i === 11 ? 7 : 100 + i;
      h.flags[h.slot(s)] = i === 0 ? OutcomeFlag.KNOWN | OutcomeFlag.ERROR : OutcomeFlag.KNOWN;
    }
    expect(retriedAfter(h, 11, 10)).toBe(true);
    expect(retriedAfter(h, 11, 11)).toBe(false);
    // a call never run before is no retry
    expect(retriedAfter(h, 5, 2)).toBe(false);
  });
});
