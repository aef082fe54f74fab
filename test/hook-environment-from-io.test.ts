/**
 * `loopwatch hook` reads its environment through its io (src/cli/hook-io.ts: the process's own, `process.env`,
 * from the hook's entry and the CLI): the state folder it falls back to (LOOPWATCH_STATE_DIR, else
 * XDG_STATE_HOME, else HOME), the decision log of LOOPWATCH_DECISION_LOG and the accepted allowlists' markers
 * (under the state home). Before (citime18), the hook command and runHook read `process.env` and `os.homedir()`
 * whatever their io said, so a test could only give a hook another environment by starting a process.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accept } from '../src/hooks/accepted-allowlists.js';
import { acceptedPath } from '../src/hooks/project-allowlist.js';
import { SessionFile } from '../src/hooks/session-file.js';
import { hookInProcess } from './helpers/hook-in-process.js';
import { beforePayload } from './helpers/hook-payloads.js';
import type { ScriptedCall } from './helpers/live-scenarios.js';
import { tempFolder } from './helpers/temp-folder.js';

const CALL: ScriptedCall = { tool: 'Bash', args: { command: 'make' }, error: 'make: *** [all] Error 2' };

/** This process's environment without the variables that name loopwatch's folders, and with `set`. */
function envWith(set: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const v of ['LOOPWATCH_STATE_DIR', 'LOOPWATCH_DECISION_LOG', 'XDG_STATE_HOME']) delete env[v];
  return { ...env, ...set };
}

/** One PreToolUse of session `session` through the hook in this process, with `env` as its environment. */
async function proposeWith(env: NodeJS.ProcessEnv, session: string, args: readonly string[] = [], cwd?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return hookInProcess(['--agent', 'claude-code', ...args], { ...beforePayload('claude-code', session, CALL, `toolu_${session}`), ...(cwd === undefined ? {} : { cwd }) }, { env });
}

describe('the hook\'s state folder, from the environment its io gives it', () => {
  it('should be LOOPWATCH_STATE_DIR', async () => {
    const state = join(tempFolder('hook-env-io'), 'state');
    expect(await proposeWith(envWith({ LOOPWATCH_STATE_DIR: state }), 'env-dir')).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(new SessionFile(state, 'claude-code', 'env-dir').path)).toBe(true);
  });

  it('should be $XDG_STATE_HOME/loopwatch/hooks without LOOPWATCH_STATE_DIR', async () => {
    const xdg = tempFolder('hook-env-io');
    expect((await proposeWith(envWith({ XDG_STATE_HOME: xdg }), 'env-xdg')).code).toBe(0);
    expect(existsSync(new SessionFile(join(xdg, 'loopwatch', 'hooks'), 'claude-code', 'env-xdg').path)).toBe(true);
  });

  it('should be $HOME/.local/state/loopwatch/hooks without either', async () => {
    const home = tempFolder('hook-env-io');
    expect((await proposeWith(envWith({ HOME: home }), 'env-home')).code).toBe(0);
    expect(existsSync(new SessionFile(join(home, '.local', 'state', 'loopwatch', 'hooks'), 'claude-code', 'env-home').path)).toBe(true);
  });
});

describe('what else the hook reads of that environment', () => {
  it('should write the decision log LOOPWATCH_DECISION_LOG names', async () => {
    const root = tempFolder('hook-env-io');
    const log = join(root, 'decisions.jsonl');
    expect((await proposeWith(envWith({ LOOPWATCH_DECISION_LOG: log }), 'env-log', ['--state-dir', join(root, 'state')])).code).toBe(0);
    expect(readFileSync(log, 'utf8')).toMatch(/^\{.*"hook_event_name":"PreToolUse".*\}\n$/);
  });

  it('should find the accepted allowlists under the state home it names', async () => {
    const root = tempFolder('hook-env-io');
    const cwd = join(root, 'project');
    mkdirSync(join(cwd, '.git'), { recursive: true });
    const file = join(cwd, '.loopwatch.json');
    writeFileSync(file, JSON.stringify({ allow: [{ tool: 'Bash', command: '^make$' }] }));
    const env = envWith({ XDG_STATE_HOME: join(root, 'xdg') });
    accept(acceptedPath(file), readFileSync(file, 'utf8'), env);
    const r = await proposeWith(env, 'env-accepted', ['--state-dir', join(root, 'state')], cwd);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`loopwatch hook: loopwatch: ${file} is in use: 1 rule lets calls repeat without a warning\n`);
  });
});
