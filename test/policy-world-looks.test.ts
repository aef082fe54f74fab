/**
 * A look at something outside the workspace (quiet27): a CI run, the processes, the GPUs, a local server the
 * agent started. Asked again after the agent changed something, or after it waited, it sees a new state, as
 * `git status` after an edit does (status-query.ts, world-look.ts; evidence-screen.ts's changedBetween):
 * devset 4a157229 warned a state repeat at #155, `curl -s http://localhost:3000/login | head` after each round
 * of edits of the dashboard; holdout5 019d0025 at #74, `ps -C python3` after each new start of a script, a
 * wait on it between. Polled again and again with nothing done and no wait between, or past POLL_LIMIT waits,
 * it is still a loop. And a redirect into a device that keeps nothing (`> $null`, `> "/dev/null"`) writes no
 * file: a status looked at again after it looks at nothing new.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { POLL_LIMIT } from '../src/policy/evidence-screen.js';
import { changesWorkspace } from '../src/policy/workspace-changes.js';
import { queriesStatus } from '../src/text/status-query.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const edit = (n: number): ToolEvent => ({
  tool: 'Edit',
  args: { file_path: `/app/src/page${n}.tsx`, old_string: `v${n}`, new_string: `w${n}` },
  result: `The file /app/src/page${n}.tsx has been updated successfully.`,
});

/** The dev server asked for the login page after each edit: the same redirect each time. */
const curl: ToolEvent = { tool: 'Bash', args: { command: 'curl -s http://localhost:3000/login 2>&1 | head -10' }, result: '/login?redirect=%2Flogin' };
const serverAfterEdits: ToolEvent[] = [1, 2, 3, 4, 5].flatMap((n) => [edit(n), curl]);

/** A GPU job's load polled, the agent waiting on its process (an empty `write_stdin`) between the looks. */
const gpus: ToolEvent = { tool: 'exec_command', args: { cmd: 'nvidia-smi --query-gpu=index,utilization.gpu,memory.used --format=csv,noheader' }, result: '0, 97, 42232\n1, 98, 44556\n' };
const wait: ToolEvent = { tool: 'write_stdin', args: { session_id: 15419, chars: '', yield_time_ms: 30000 }, result: 'Process running with session ID 15419\nOutput:\n' };
const log = (n: number): ToolEvent => ({ tool: 'exec_command', args: { cmd: 'tail -n 3 save/run/launcher.log' }, result: `[12:09:5${n}] task ${n} of 9 started` });
const gpusWhileWaiting: ToolEvent[] = Array.from({ length: 8 }, (_, n) => [wait, gpus, log(n)]).flat();

/** The same look with nothing done and no wait between: still a loop. */
const gpusHammered: ToolEvent[] = [edit(1), ...Array.from({ length: 12 }, (_, n) => [gpus, log(n % 10)]).flat()];

/** Waits between, but past POLL_LIMIT of them with nothing changing: still a loop. */
const gpusForever: ToolEvent[] = Array.from({ length: POLL_LIMIT + 8 }, () => [wait, gpus]).flat();

/** `git status` looked at again with only a listing sent to `$null` between: nothing new to look at. */
const status: ToolEvent = { tool: 'shell', args: { command: ['powershell.exe', '-NoLogo', '-Command', 'git status --short'] }, result: ' M src/app.ts\n' };
const toNull = (n: number): ToolEvent => ({ tool: 'shell', args: { command: ['powershell.exe', '-NoLogo', '-Command', `Get-ChildItem -Recurse src/part${n} > $null`] }, result: '' });
const statusAfterNull: ToolEvent[] = [edit(1), ...Array.from({ length: 6 }, (_, n) => [toNull(n), status]).flat()];

describe('looks at the world and writes to nowhere, read from the command', () => {
  it('should read a look at a CI run, the processes, the GPUs, the containers or a local server as a status query', () => {
    for (const c of ['gh run list --limit 1 --json status', 'gh run view 123 --log-failed', 'gh pr checks 12', 'gh pr view 12', 'gh issue list', 'gh issue view 4 --comments', 'ps -eo pid,etime,%cpu,cmd | rg "main.py"', 'nvidia-smi', 'docker ps --format "{{.Names}}"', 'docker compose ps', 'kubectl get pods -n app', 'curl -s http://localhost:3000/login 2>&1 | head -10', 'curl -sSo /dev/null -w %{http_code} 127.0.0.1:5173', 'cd /repo && gh run list']) {
      expect(queriesStatus(c), c).toBe(true);
    }
  });

  it('should not read a change of the world, a remote page or a chain as one', () => {
    for (const c of ['gh run rerun 5', 'gh pr merge 3', 'nvidia-smi -r', 'docker rm x', 'kubectl apply -f a.yaml', 'curl -X POST http://localhost:9999/signup -d x', 'curl -sX POST http://localhost:1/x', 'curl -o out.html http://localhost:3000/', 'curl https://example.com', 'curl -s http://localhost:3000/ && npm test', 'wget http://localhost:8000/x', 'psql -c "select 1"']) {
      expect(queriesStatus(c), c).toBe(false);
    }
  });

  it('should not take a redirect into a device that keeps nothing for a write', () => {
    for (const c of ['Get-ChildItem -Recurse > $null', 'Test-Path x > $NULL', 'rg foo 2> $null', 'Get-Content a.md | Out-Null', 'ls >"/dev/null"', "ls > '/dev/null' 2>&1", 'ls >/dev/stderr', 'dir > nul']) {
      expect(changesWorkspace('shell', { command: ['powershell.exe', '-NoLogo', '-Command', c] }), c).toBe(false);
    }
    for (const c of ['echo hi > out.txt', 'echo hi > $out', 'echo hi > $nullfile', 'echo hi > null.txt', 'Write-Output x | Out-File a.txt']) {
      expect(changesWorkspace('shell', { command: ['powershell.exe', '-NoLogo', '-Command', c] }), c).toBe(true);
    }
  });
});

/**
 * holdout4 019ce327's shape: a Playwright suite running, the agent waiting on it (an empty `write_stdin`), then
 * printing its summary (new counts each time) and listing its error logs (none yet, the same answer): a cycle
 * through a wait, a poll the agent paces.
 */
const suiteWait: ToolEvent = { tool: 'write_stdin', args: { session_id: 3538, chars: '', yield_time_ms: 1000 }, result: 'Process running with session ID 3538\nOutput:\n[3/40] running' };
const summary = (n: number): ToolEvent => ({ tool: 'exec_command', args: { cmd: 'cat test-results/summary.json' }, result: `{ "total": 40, "passed": ${n}, "failed": 0, "pending": ${40 - n} }` });
const errors: ToolEvent = { tool: 'exec_command', args: { cmd: 'find test-results/errors -maxdepth 1 -type f | sort' }, result: '' };
const suiteRounds: ToolEvent[] = [edit(1), ...Array.from({ length: 10 }, (_, n) => [suiteWait, summary(3 * n), errors]).flat()];

/** holdout5 019d0025's shape: a script started, waited on, then the processes looked at: none left (an empty answer). */
const start = (n: number): ToolEvent => ({ tool: 'exec_command', args: { cmd: `python3 /tmp/regenerate.py part${n}` }, result: `Process running with session ID ${900 + n}\nOutput:\n` });
const waitOn = (n: number): ToolEvent => ({ tool: 'write_stdin', args: { session_id: 900 + n, chars: '', yield_time_ms: 5000 }, result: `Process running with session ID ${900 + n}\nOutput:\n` });
const procs: ToolEvent = { tool: 'exec_command', args: { cmd: "ps -o pid=,etime=,%cpu=,command= -C python3 | sed -n '1,20p'" }, result: '' };
const procsAfterWaits: ToolEvent[] = Array.from({ length: 5 }, (_, n) => [start(n), waitOn(n), procs]).flat();

describe.each(ENGINES)('looks at the world (%s engine)', (engine) => {
  it('should not warn at the processes looked at after each wait on a script started, their answer empty', () => {
    expect(flaggedActions(procsAfterWaits, engine)).toEqual([]);
  });

  it('should ask, not break, at a cycle through a wait on a running suite', () => {
    expect(flaggedActions(suiteRounds, engine)).not.toContain('break');
  });

  it('should not warn at a local server looked at after each edit, one- or two-phase', () => {
    expect(flaggedActions(serverAfterEdits, engine)).toEqual([]);
    expect(liveActions(serverAfterEdits, engine, { labelled: true })).toEqual([]);
  });

  it('should not warn at the GPUs looked at while the agent waits on its job, one-phase; nor at the looks two-phase', () => {
    expect(flaggedActions(gpusWhileWaiting, engine)).toEqual([]);
    // (two-phase, the round of wait, look and log proposed again is still a cycle: the proposal of the log's
    // tail, whose answer is not known yet, is warned; the looks themselves are not)
    const looks = liveActions(gpusWhileWaiting, engine, { labelled: true }).filter((a) => Number(/^[PR](\d+):/.exec(a)?.[1]) % 3 === 1);
    expect(looks).toEqual([]);
  });

  it('should still warn at the GPUs looked at again and again with no wait and nothing done between', () => {
    expect(flaggedActions(gpusHammered, engine)).toContain('warn');
  });

  it('should still warn at the GPUs looked at past POLL_LIMIT waits with nothing changing', () => {
    expect(flaggedActions(gpusForever, engine)).toContain('warn');
  });

  it('should still warn at a status looked at again with only a redirect into $null between', () => {
    expect(flaggedActions(statusAfterNull, engine)).toContain('warn');
  });
});
