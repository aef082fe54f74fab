/**
 * A hook whose Node was started with a variable Node acts on as it starts (NODE_OPTIONS, OPENSSL_CONF, ...:
 * src/hooks/start-environment.ts) says so once to the person (`systemMessage`, and a line on stderr): its
 * line was written before `hook install` cleared them (or it runs on Windows, where the line cannot). The
 * variable's name is told, never its value; the decision is the one without the variable; a call that sees
 * none of them says nothing. Real hook processes: the installed line, with its `env -u ...` taken out as an
 * install before hostile37 wrote it, run as Gemini CLI runs it (`bash -c`, in the project's folder).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installTarget } from '../src/hooks/install-targets.js';
import { START_VARIABLES } from '../src/hooks/start-environment.js';
import { startEnvironmentNotice, startEnvironmentText, startVariablesSet } from '../src/hooks/start-environment-notice.js';
import { afterPayload, beforePayload, loopwatchAsync } from './helpers/hook-payloads.js';
import type { ScriptedCall } from './helpers/live-scenarios.js';
import { tempFolder } from './helpers/temp-folder.js';

const FAILING: ScriptedCall = { tool: 'run_shell_command', args: { command: 'npm test' }, error: 'Error: 3 tests failed' };
const VALUE_SECRET = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH';

/** This process's environment without the variables that steer loopwatch or Node, with `set`. */
function envWith(set: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const v of ['LOOPWATCH_STATE_DIR', 'LOOPWATCH_DECISION_LOG', 'LOOPWATCH_HOOK_CODE_CACHE', 'XDG_STATE_HOME', 'XDG_CACHE_HOME', ...START_VARIABLES.map((s) => s.name)]) delete env[v];
  return { ...env, ...set };
}

/** A home and a project beside it; the Gemini CLI BeforeTool and AfterTool lines `hook install` wrote, made old (no `env -u`) unless `current`. */
async function installed(current = false): Promise<{ home: string; project: string; before: string; after: string }> {
  const root = tempFolder('hook-start-notice');
  const home = join(root, 'home');
  const project = join(root, 'proj');
  mkdirSync(home);
  mkdirSync(project);
  const r = await loopwatchAsync(['hook', 'install', '--agent', 'gemini', '--agent-version', '0.61.0'], '', envWith({ HOME: home }), home);
  expect(r.code, r.stderr).toBe(0);
  const path = installTarget('gemini', 'user', home, { HOME: home }).path;
  if (!current) writeFileSync(path, readFileSync(path, 'utf8').replace(/\/usr\/bin\/env (?:-u [A-Z0-9_]+ )+/g, ''));
  const hooks = (JSON.parse(readFileSync(path, 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> }).hooks;
  const line = (event: string): string => hooks[event]?.[0]?.hooks[0]?.command as string;
  if (!current) expect(line('BeforeTool').startsWith(process.execPath)).toBe(true);
  return { home, project, before: line('BeforeTool'), after: line('AfterTool') };
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `command` run as Gemini CLI runs a hook (`bash -c`, in the project) on `payload`. */
function runLine(command: string, payload: Record<string, unknown>, cwd: string, env: NodeJS.ProcessEnv): Run {
  const r = spawnSync('bash', ['-c', command], { cwd, env, input: JSON.stringify({ ...payload, cwd }), encoding: 'utf8', timeout: 20_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The reply's `systemMessage` (undefined: none, or no reply). */
function shown(stdout: string): string | undefined {
  return stdout === '' ? undefined : (JSON.parse(stdout) as { systemMessage?: string }).systemMessage;
}

/** The reply without the notice's line: what the hook answers for the call itself. */
function withoutNotice(stdout: string): Record<string, unknown> {
  if (stdout === '') return {};
  const o = JSON.parse(stdout) as Record<string, unknown>;
  const m = o.systemMessage;
  if (typeof m === 'string' && m.startsWith('loopwatch: the hook\'s Node was started with')) {
    const rest = m.split('\n').slice(1).join('\n');
    if (rest === '') delete o.systemMessage;
    else o.systemMessage = rest;
  }
  return o;
}

/** `n` failing calls of `session` (BeforeTool and AfterTool each), through the lines, with `env`. */
function calls(lines: { project: string; before: string; after: string }, session: string, n: number, env: NodeJS.ProcessEnv): Run[] {
  const out: Run[] = [];
  for (let i = 0; i < n; i++) {
    out.push(runLine(lines.before, beforePayload('gemini', session, FAILING, `c${i}`), lines.project, env));
    out.push(runLine(lines.after, afterPayload('gemini', session, FAILING, `c${i}`, i), lines.project, env));
  }
  return out;
}

describe('a hook started by an old line with a variable Node acts on as it starts', () => {
  it.each([
    ['NODE_OPTIONS', `--max-old-space-size=4096 --title=${VALUE_SECRET}`],
    ['NODE_EXTRA_CA_CERTS', `${VALUE_SECRET}.pem`], // an empty file in the project: Node reads it quietly
    ['NODE_REDIRECT_WARNINGS', `/tmp/${VALUE_SECRET}.log`],
  ])('should tell %s once per session, by name only (its value not shown), with the install to run again; the call allowed', async (name, value) => {
    const lines = await installed();
    if (name === 'NODE_EXTRA_CA_CERTS') writeFileSync(join(lines.project, value), '');
    const env = envWith({ HOME: lines.home, [name]: value });
    const [first, after, second] = calls(lines, 's1', 2, env) as [Run, Run, Run, Run];
    expect(first.code, first.stderr).toBe(0);
    expect(shown(first.stdout)).toBe(`loopwatch: the hook's Node was started with ${name} set (acted on before loopwatch runs; a project's settings or .env can set it); run loopwatch hook install again: its line starts Node without it`);
    expect(withoutNotice(first.stdout)).toEqual({});
    expect(first.stderr).toBe(`loopwatch hook: the hook's Node was started with ${name} set (acted on before loopwatch runs; a project's settings or .env can set it); run loopwatch hook install again: its line starts Node without it\n`);
    for (const r of [after, second]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('');
    }
    for (const r of [first, after, second]) expect(r.stdout + r.stderr).not.toContain(VALUE_SECRET);
    // another session is told again
    const [other] = calls(lines, 's2', 1, env) as [Run];
    expect(shown(other.stdout)).toContain(`started with ${name} set`);
  });

  it('should name every variable set, in one notice', async () => {
    const lines = await installed();
    const [first] = calls(lines, 's1', 1, envWith({ HOME: lines.home, NODE_OPTIONS: '--max-old-space-size=4096', NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt' })) as [Run];
    expect(shown(first.stdout)).toMatch(/^loopwatch: the hook's Node was started with NODE_OPTIONS, NODE_EXTRA_CA_CERTS set \(.*can set them\); run loopwatch hook install again: its line starts Node without them$/);
  });

  it('should give the same decisions as without the variable (a loop denied all the same), the notice on the first reply only', async () => {
    const lines = await installed();
    const plain = calls(lines, 'plain', 6, envWith({ HOME: lines.home }));
    const withVar = calls(lines, 'with', 6, envWith({ HOME: lines.home, NODE_OPTIONS: '--max-old-space-size=4096' }));
    expect(plain.map((r) => withoutNotice(r.stdout))).toEqual(withVar.map((r) => withoutNotice(r.stdout)));
    expect(plain.some((r) => (withoutNotice(r.stdout) as { decision?: string }).decision === 'deny')).toBe(true);
    expect(withVar.map((r) => (shown(r.stdout) ?? '').includes('started with NODE_OPTIONS'))).toEqual([true, ...Array<boolean>(11).fill(false)]);
    for (const r of plain) expect(shown(r.stdout) ?? '').not.toContain('started with');
  });

  it('should say nothing where no variable is set, or it is set empty', async () => {
    const lines = await installed();
    for (const r of calls(lines, 's1', 2, envWith({ HOME: lines.home, NODE_OPTIONS: '' }))) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('');
    }
  });

  it('should say nothing under the line install writes now (env -u clears the variable before Node)', async () => {
    const lines = await installed(true);
    for (const r of calls(lines, 's1', 2, envWith({ HOME: lines.home, NODE_OPTIONS: '--max-old-space-size=4096', NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt' }))) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('');
    }
  });
});

describe('what the notice says, and how often', () => {
  it('should find the names set, not empty, in their list\'s order', () => {
    expect(startVariablesSet({})).toEqual([]);
    expect(startVariablesSet({ NODE_OPTIONS: '', PATH: '/bin' })).toEqual([]);
    expect(startVariablesSet({ NODE_COMPILE_CACHE: 'x', NODE_OPTIONS: '--x' })).toEqual(['NODE_OPTIONS', 'NODE_COMPILE_CACHE']);
  });

  it('should give the fix for Windows, where install cannot clear them, and tell it once per agent there (not each session)', () => {
    expect(startEnvironmentText(['NODE_OPTIONS'], 'win32')).toMatch(/; on Windows the hook's line cannot clear it: unset it where the agent starts/);
    const state = tempFolder('hook-start-notice-state');
    const env = { NODE_OPTIONS: '--x' };
    expect(startEnvironmentNotice(state, { agent: 'claude-code', session: 'a' }, env, 'win32')).toContain('on Windows');
    expect(startEnvironmentNotice(state, { agent: 'claude-code', session: 'b' }, env, 'win32')).toBeUndefined();
    expect(startEnvironmentNotice(state, { agent: 'codex', session: 'b' }, env, 'win32')).toContain('on Windows');
    expect(startEnvironmentNotice(state, { agent: 'claude-code', session: 'b' }, env, 'linux')).toContain('run loopwatch hook install again');
    expect(startEnvironmentNotice(state, { agent: 'claude-code', session: 'b' }, env, 'linux')).toBeUndefined();
    // another set of names is told again
    expect(startEnvironmentNotice(state, { agent: 'claude-code', session: 'b' }, { ...env, OPENSSL_CONF: 'x' }, 'linux')).toContain('NODE_OPTIONS, OPENSSL_CONF');
  });
});
