/**
 * What a cloned project can put in the hook's environment: Gemini CLI loads a project's `.env` into its own
 * environment, which its hooks inherit, so LOOPWATCH_DECISION_LOG and LOOPWATCH_STATE_DIR may be the
 * project's words, not the user's. Before (hostile33), `LOOPWATCH_DECISION_LOG=../home/.bashrc` appended a
 * JSON line holding the proposed command to the user's `~/.bashrc` (made 0600): bash reads such a line as one
 * word with its commas outside quotes, and runs a `$(...)` inside it at the next shell's start; a relative
 * LOOPWATCH_STATE_DIR put the sessions' state in the project.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOG_LINE_START } from '../src/hooks/decision-log.js';
import { SessionFile } from '../src/hooks/session-file.js';
import { beforePayload, loopwatchAsync, proposeAction } from './helpers/hook-payloads.js';
import type { ScriptedCall } from './helpers/live-scenarios.js';
import { tempFolder } from './helpers/temp-folder.js';

/** A command a project's agent might be led to propose: bash would run its `$(...)` from a line of ~/.bashrc. */
const CALL: ScriptedCall = { tool: 'run_shell_command', args: { command: 'echo "$(touch /tmp/pwned)"' }, error: 'no' };
const BASHRC = 'export PATH="$PATH:$HOME/bin"\n';

/** This process's environment without loopwatch's variables, with `set`. */
function envWith(set: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const v of ['LOOPWATCH_STATE_DIR', 'LOOPWATCH_DECISION_LOG', 'XDG_STATE_HOME']) delete env[v];
  return { ...env, ...set };
}

/** A home folder holding a `.bashrc` (0644) and a project folder `src/proj` inside it. */
function place(): { home: string; project: string; bashrc: string } {
  const home = tempFolder('hook-env-project');
  const project = join(home, 'src', 'proj');
  mkdirSync(project, { recursive: true });
  const bashrc = join(home, '.bashrc');
  writeFileSync(bashrc, BASHRC, { mode: 0o644 });
  chmodSync(bashrc, 0o644);
  return { home, project, bashrc };
}

/** One Gemini BeforeTool through the real CLI's hook, run in `cwd` with `env`. */
function propose(env: NodeJS.ProcessEnv, cwd: string, session: string, args: readonly string[] = []): ReturnType<typeof loopwatchAsync> {
  const payload = { ...beforePayload('gemini', session, CALL, `c_${session}`), cwd };
  return loopwatchAsync(['hook', '--agent', 'gemini', ...args], JSON.stringify(payload), env, cwd);
}

describe('a decision log named by the hook\'s environment', () => {
  it('should not append to a file of the user\'s that is not a decision log (~/.bashrc), and say so', async () => {
    const p = place();
    const state = join(p.home, 'state');
    for (const log of [p.bashrc, '../../.bashrc']) {
      const r = await propose(envWith({ HOME: p.home, LOOPWATCH_DECISION_LOG: log }), p.project, 'bashrc', ['--state-dir', state]);
      expect(r.code).toBe(0);
      expect(proposeAction('gemini', r.stdout)).toBe('allow');
      expect(r.stderr).toContain(`the decision log ${log} is not written`);
    }
    expect(readFileSync(p.bashrc, 'utf8')).toBe(BASHRC);
    expect(statSync(p.bashrc).mode & 0o777).toBe(0o644);
  });

  it('should not write a log named by a relative path (a file of the project the agent is in)', async () => {
    const p = place();
    const r = await propose(envWith({ HOME: p.home, LOOPWATCH_DECISION_LOG: 'decisions.jsonl' }), p.project, 'relative', ['--state-dir', join(p.home, 'state')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('the decision log decisions.jsonl is not written: it is a relative path');
    expect(readdirSync(p.project)).toEqual([]);
  });

  it('should still begin a new log, append to an empty file and to a log it wrote (guard)', async () => {
    const p = place();
    const made = join(p.home, 'new.jsonl');
    const empty = join(p.home, 'empty.jsonl');
    writeFileSync(empty, '', { mode: 0o600 });
    for (const log of [made, empty, made]) {
      const r = await propose(envWith({ HOME: p.home, LOOPWATCH_DECISION_LOG: log }), p.project, 'logs', ['--state-dir', join(p.home, 'state')]);
      expect(r.stderr).toBe('');
    }
    expect(readFileSync(empty, 'utf8').startsWith(LOG_LINE_START)).toBe(true);
    const lines = readFileSync(made, 'utf8').split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l.startsWith(LOG_LINE_START)).toBe(true);
  });
});

describe('a state folder named by the hook\'s environment', () => {
  it('should not be a relative LOOPWATCH_STATE_DIR (the project\'s folder): the default state folder is used', async () => {
    const p = place();
    const r = await propose(envWith({ HOME: p.home, LOOPWATCH_STATE_DIR: '.lw' }), p.project, 'state');
    expect(r.code).toBe(0);
    expect(readdirSync(p.project)).toEqual([]);
    expect(existsSync(new SessionFile(join(p.home, '.local', 'state', 'loopwatch', 'hooks'), 'gemini', 'state').path)).toBe(true);
  });
});
