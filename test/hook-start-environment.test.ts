/**
 * What the agent's environment can make the hook do before loopwatch's code runs. An agent's hooks inherit
 * its environment, and a project can add to it: Claude Code applies the `env` of a project's
 * `.claude/settings.json` to its hooks, Gemini CLI loads a trusted folder's `.env` (both probed:
 * docs/reliability.md, hostile37). Node acts on some variables as it starts: `NODE_OPTIONS=--require
 * ./x.cjs` runs the project's file in every hook call, `OPENSSL_CONF` loads a provider module it names,
 * `NODE_EXTRA_CA_CERTS=/dev/stdin` reads the payload as certificates, `NODE_V8_COVERAGE` writes into the
 * folder it names. The installed line now starts Node through `/usr/bin/env -u ...`; the line is run here as
 * Gemini CLI runs it (`bash -c`, in the project's folder).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installTarget } from '../src/hooks/install-targets.js';
import { START_VARIABLES, leftToNode, programLookedUp, startPrefix } from '../src/hooks/start-environment.js';
import { homeFolder } from '../src/hooks/state-dir.js';
import { beforePayload, loopwatchAsync, proposeAction } from './helpers/hook-payloads.js';
import type { ScriptedCall } from './helpers/live-scenarios.js';
import { tempFolder } from './helpers/temp-folder.js';

const CALL: ScriptedCall = { tool: 'run_shell_command', args: { command: 'ls' }, error: 'no' };

/** This process's environment without the variables that steer loopwatch or Node, with `set`. */
function envWith(set: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const v of ['LOOPWATCH_STATE_DIR', 'LOOPWATCH_DECISION_LOG', 'LOOPWATCH_HOOK_CODE_CACHE', 'XDG_STATE_HOME', 'XDG_CACHE_HOME', ...START_VARIABLES.map((s) => s.name)]) delete env[v];
  return { ...env, ...set };
}

/** A home folder and a project folder beside it; the project holds a module that leaves a mark when loaded. */
function place(): { home: string; project: string; mark: string } {
  const root = tempFolder('hook-start-env');
  const home = join(root, 'home');
  const project = join(root, 'proj');
  mkdirSync(home);
  mkdirSync(project);
  const mark = join(root, 'mark');
  writeFileSync(join(project, 'evil.cjs'), `require('node:fs').writeFileSync(${JSON.stringify(mark)}, 'ran');\n`);
  writeFileSync(join(project, 'bad.cnf'), 'not an openssl configuration [[[\n');
  return { home, project, mark };
}

/** `hook install --agent gemini` for the user of `home`; the command written into BeforeTool. */
async function install(home: string): Promise<string> {
  const r = await loopwatchAsync(['hook', 'install', '--agent', 'gemini', '--agent-version', '0.61.0'], '', envWith({ HOME: home }), home);
  expect(r.code, r.stderr).toBe(0);
  return commands(settingsPath(home))[0] as string;
}

const settingsPath = (home: string): string => installTarget('gemini', 'user', home, { HOME: home }).path;

/** Every hook command of a settings file. */
function commands(path: string): string[] {
  const s = JSON.parse(readFileSync(path, 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
  return Object.values(s.hooks).flatMap((groups) => groups.flatMap((g) => g.hooks.map((h) => h.command)));
}

/** The installed `command` run as Gemini CLI runs a hook: `bash -c`, in the project, one BeforeTool payload. */
function runLine(command: string, cwd: string, env: NodeJS.ProcessEnv): { code: number | null; stdout: string; stderr: string } {
  const payload = JSON.stringify({ ...beforePayload('gemini', 'start-env', CALL, 'c1'), cwd });
  const r = spawnSync('bash', ['-c', command], { cwd, env, input: payload, encoding: 'utf8', timeout: 20_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the installed hook command and the variables Node acts on as it starts', () => {
  const cases: [string, string][] = [
    ['NODE_OPTIONS', '--require ./evil.cjs'],
    ['OPENSSL_CONF', './bad.cnf'],
    ['NODE_EXTRA_CA_CERTS', '/dev/stdin'],
    ['NODE_V8_COVERAGE', './coverage'],
  ];
  it.each(cases)('should keep %s=%s from the agent\'s environment out of the hook (run nothing of the project\'s, write nothing into it)', async (name, value) => {
    const p = place();
    const command = await install(p.home);
    const r = runLine(command, p.project, envWith({ HOME: p.home, [name]: value }));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(proposeAction('gemini', r.stdout)).toBe('allow');
    expect(r.stdout).not.toContain('could not check');
    expect(existsSync(p.mark)).toBe(false);
    expect(readdirSync(p.project).sort()).toEqual(['bad.cnf', 'evil.cjs']);
  });

  it('should still pass the agent\'s other variables (guard: the state folder a variable names is used)', async () => {
    const p = place();
    const command = await install(p.home);
    const state = join(p.home, 'elsewhere');
    const r = runLine(command, p.project, envWith({ HOME: p.home, LOOPWATCH_STATE_DIR: state }));
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(state).some((n) => n.endsWith('.lwhook'))).toBe(true);
  });
});

describe('a line installed before', () => {
  /** The settings with each loopwatch line as an install before this change wrote it: no `env -u ...`. */
  function downgrade(home: string): void {
    const path = settingsPath(home);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/\/usr\/bin\/env (?:-u [A-Z0-9_]+ )+/g, ''));
    for (const c of commands(path)) expect(c.startsWith(process.execPath)).toBe(true);
  }

  it('should be replaced by running install again', async () => {
    const p = place();
    await install(p.home);
    downgrade(p.home);
    const r = await loopwatchAsync(['hook', 'install', '--agent', 'gemini', '--agent-version', '0.61.0'], '', envWith({ HOME: p.home }), p.home);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('updated    BeforeTool');
    const all = commands(settingsPath(p.home));
    expect(all).toHaveLength(4);
    for (const c of all) expect(leftToNode(c)).toEqual([]);
  });

  it('should be named by hook status, with the install to run again; a current line is not', async () => {
    const p = place();
    await install(p.home);
    const status = async (): Promise<string> => {
      const r = await loopwatchAsync(['hook', 'status'], '', envWith({ HOME: p.home }), p.project);
      expect(r.code, r.stderr).toBe(0);
      return r.stdout;
    };
    expect(await status()).not.toContain('NODE_OPTIONS');
    downgrade(p.home);
    const said = await status();
    expect(said).toContain(`${settingsPath(p.home)} (Gemini CLI, user settings): ${START_VARIABLES.map((v) => v.name).join(', ')} reach Node before loopwatch starts; run loopwatch hook install --agent gemini again`);
  });

  it('should name a hand-written line whose program is found on the agent\'s PATH (npx), in a project\'s settings too', async () => {
    const p = place();
    const claude = join(p.project, '.claude');
    mkdirSync(claude);
    writeFileSync(join(claude, 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'npx --no-install loopwatch hook --agent claude-code' }] }] } }));
    const r = await loopwatchAsync(['hook', 'status'], '', envWith({ HOME: p.home }), p.project);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${join(claude, 'settings.json')} (Claude Code, project settings): ${START_VARIABLES.map((v) => v.name).join(', ')} reach Node before loopwatch starts; npx found on the agent's PATH; run loopwatch hook install --agent claude-code --project again`);
  });
});

describe('folders named by a relative HOME or XDG_CACHE_HOME', () => {
  it('should not put the hook\'s code cache into the project for a relative XDG_CACHE_HOME', async () => {
    const p = place();
    const command = await install(p.home);
    for (let i = 0; i < 2; i++) {
      const r = runLine(command, p.project, envWith({ HOME: p.home, XDG_CACHE_HOME: '.cache' }));
      expect(r.code, r.stderr).toBe(0);
    }
    expect(readdirSync(p.project).sort()).toEqual(['bad.cnf', 'evil.cjs']);
    expect(readdirSync(join(p.home, '.cache', 'loopwatch', 'hook-code')).some((n) => n.endsWith('.v8'))).toBe(true);
  });

  it('should take the user\'s recorded home for a relative HOME (an absolute HOME as it is)', () => {
    expect(homeFolder({ HOME: '.' })).toBe(userInfo().homedir);
    expect(homeFolder({ HOME: 'home' })).toBe(userInfo().homedir);
    expect(homeFolder({ HOME: '/somewhere/else' })).toBe('/somewhere/else');
  });
});

describe('the words before Node, and reading them back', () => {
  const names = START_VARIABLES.map((v) => v.name);

  it('should be none on Windows or where no env is found, else env by its absolute path with every variable', () => {
    expect(startPrefix('win32', () => true)).toEqual([]);
    expect(startPrefix('linux', () => false)).toEqual([]);
    expect(startPrefix('darwin', (p) => p === '/bin/env')).toEqual(['/bin/env', ...names.flatMap((n) => ['-u', n])]);
  });

  it('should find every variable left to Node by a line without env, or with some -u missing', () => {
    expect(leftToNode('/usr/bin/node /x/dist/hook/hook-main.cjs --agent codex')).toEqual(names);
    expect(leftToNode('/usr/bin/env -u NODE_OPTIONS /usr/bin/node /x/dist/hook/hook-main.cjs')).toEqual(names.slice(1));
    expect(leftToNode(`${startPrefix('linux', () => true).join(' ')} /usr/bin/node /x/dist/hook/hook-main.cjs`)).toEqual([]);
    expect(leftToNode('node /x/dist/hook/hook-main.cjs -u NODE_OPTIONS')).toEqual(names); // -u after Node is Node's, not env's
  });

  it('should tell a program named without a path (found on PATH) from one named by its path', () => {
    expect(programLookedUp('npx --no-install loopwatch hook --agent codex')).toBe('npx');
    expect(programLookedUp('loopwatch hook --agent codex')).toBe('loopwatch');
    expect(programLookedUp('env -u NODE_OPTIONS /usr/bin/node /x/dist/hook/hook-main.cjs')).toBe('env');
    expect(programLookedUp('/usr/bin/env -u NODE_OPTIONS node /x/dist/hook/hook-main.cjs')).toBe('node');
    expect(programLookedUp(`${startPrefix('linux', () => true).join(' ')} /usr/bin/node /x/dist/hook/hook-main.cjs`)).toBeNull();
    expect(programLookedUp("'/opt/my node/bin/node' /x/dist/hook/hook-main.cjs")).toBeNull();
  });
});
