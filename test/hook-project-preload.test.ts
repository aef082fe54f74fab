/**
 * `LD_PRELOAD` and `BASH_ENV` run code before any hook command starts, and a project can set them (Claude
 * Code's project `env`, Gemini CLI's `.env`); no command line keeps them out. The hook says so once a session
 * when the value points into the project (src/hooks/project-preload.ts), never for a user's own preload
 * (jemalloc, faketime, a bash setup file of the home folder). Real hook processes run the current installed
 * line as Gemini CLI runs it (`bash -c`, in the project's folder).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installTarget } from '../src/hooks/install-targets.js';
import { PRELOAD_VARIABLES, projectFolders, projectPreloadNotice, projectPreloads } from '../src/hooks/project-preload.js';
import { START_VARIABLES } from '../src/hooks/start-environment.js';
import { afterPayload, beforePayload, loopwatchAsync } from './helpers/hook-payloads.js';
import type { ScriptedCall } from './helpers/live-scenarios.js';
import { tempFolder } from './helpers/temp-folder.js';

const CALL: ScriptedCall = { tool: 'run_shell_command', args: { command: 'npm test' }, error: 'Error: 3 tests failed' };

/** A home and a project beside it. */
function place(): { root: string; home: string; project: string } {
  const root = tempFolder('hook-preload');
  const home = join(root, 'home');
  const project = join(root, 'proj');
  mkdirSync(home);
  mkdirSync(project);
  return { root, home, project };
}

/** The names told for `set` in a hook running in `project` (session cwd the project). */
function told(p: { home: string; project: string }, set: NodeJS.ProcessEnv): string[] {
  const env = { HOME: p.home, ...set };
  return projectPreloads(env, projectFolders(env, p.project, p.project));
}

describe('variables that run the project\'s code before any hook command', () => {
  it('should name LD_PRELOAD and BASH_ENV that point into the project: relative, under its folder, through a link, expanded by bash', () => {
    const p = place();
    for (const value of ['./evil.so', 'build/evil.so', `${p.project}/evil.so`, `libfaketime.so.1 ${p.project}/x.so`, `/usr/lib/libjemalloc.so.2:./x.so`]) expect(told(p, { LD_PRELOAD: value }), value).toEqual(['LD_PRELOAD']);
    for (const value of ['env.sh', './env.sh', `${p.project}/.envrc`, '$(touch /tmp/x)', '$PWD/env.sh', '`id`']) expect(told(p, { BASH_ENV: value }), value).toEqual(['BASH_ENV']);
    expect(told(p, { DYLD_INSERT_LIBRARIES: `${p.project}/x.dylib` })).toEqual(['DYLD_INSERT_LIBRARIES']);
    // the project reached through a link, the value spelled with the real folder (and the reverse)
    const link = join(p.root, 'link');
    symlinkSync(p.project, link);
    writeFileSync(join(p.project, 'x.so'), '');
    expect(projectPreloads({ LD_PRELOAD: `${p.project}/x.so` }, projectFolders({ HOME: p.home }, link, link))).toEqual(['LD_PRELOAD']);
    expect(projectPreloads({ LD_PRELOAD: `${link}/x.so` }, projectFolders({ HOME: p.home }, p.project, p.project))).toEqual(['LD_PRELOAD']);
    expect(told(p, { LD_PRELOAD: './a.so', BASH_ENV: './b.sh' })).toEqual(PRELOAD_VARIABLES.map((v) => v.name).filter((n) => n !== 'DYLD_INSERT_LIBRARIES'));
  });

  it('should say nothing of a user\'s own preload: a system library, a name on the loader\'s path, a file of the home folder, a project that is the home', () => {
    const p = place();
    for (const value of ['/usr/lib/x86_64-linux-gnu/libjemalloc.so.2', 'libjemalloc.so.2', '/usr/lib/faketime/libfaketime.so.1 libtcmalloc.so.4', `${p.home}/lib/x.so`, '']) expect(told(p, { LD_PRELOAD: value }), value).toEqual([]);
    for (const value of [`${p.home}/.bash_env`, '/etc/bash.bashrc']) expect(told(p, { BASH_ENV: value }), value).toEqual([]);
    // the agent started in the home folder: the user's files are there, not a project's
    expect(projectPreloads({ LD_PRELOAD: `${p.home}/lib/x.so` }, projectFolders({ HOME: p.home }, p.home, p.home))).toEqual([]);
    expect(projectFolders({ HOME: p.home }, '/', '/')).toEqual([]);
    expect(projectPreloadNotice(p.root, { agent: 'gemini', session: 's' }, { LD_PRELOAD: './x.so' }, p.project, 'win32')).toBeUndefined();
  });
});

/** This process's environment without the variables that steer loopwatch, Node or the preloads, with `set`. */
function envWith(set: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const v of ['LOOPWATCH_STATE_DIR', 'LOOPWATCH_DECISION_LOG', 'LOOPWATCH_HOOK_CODE_CACHE', 'XDG_STATE_HOME', 'XDG_CACHE_HOME', 'CLAUDE_PROJECT_DIR', 'GEMINI_PROJECT_DIR', ...START_VARIABLES.map((s) => s.name), ...PRELOAD_VARIABLES.map((s) => s.name)]) delete env[v];
  return { ...env, ...set };
}

/** The BeforeTool and AfterTool lines `hook install --agent gemini` writes for the user of `home`. */
async function lines(home: string): Promise<{ before: string; after: string }> {
  const r = await loopwatchAsync(['hook', 'install', '--agent', 'gemini', '--agent-version', '0.61.0'], '', envWith({ HOME: home }), home);
  expect(r.code, r.stderr).toBe(0);
  const hooks = (JSON.parse(readFileSync(installTarget('gemini', 'user', home, { HOME: home }).path, 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> }).hooks;
  const line = (event: string): string => hooks[event]?.[0]?.hooks[0]?.command as string;
  return { before: line('BeforeTool'), after: line('AfterTool') };
}

/** `command` run as Gemini CLI runs a hook (`bash -c`, in the project) on `payload`: its stdout's systemMessage and stderr. */
function runLine(command: string, payload: Record<string, unknown>, cwd: string, env: NodeJS.ProcessEnv): { code: number | null; message: string | undefined; stderr: string } {
  const r = spawnSync('bash', ['-c', command], { cwd, env, input: JSON.stringify({ ...payload, cwd }), encoding: 'utf8', timeout: 20_000 });
  const message = r.stdout === '' ? undefined : (JSON.parse(r.stdout) as { systemMessage?: string }).systemMessage;
  return { code: r.status, message, stderr: r.stderr };
}

describe('the hook tells a project\'s preload once a session', () => {
  it('should tell BASH_ENV of the project (which bash ran before the installed line) on the first call only, by name; a user\'s own says nothing', async () => {
    const p = place();
    const l = await lines(p.home);
    const mark = join(p.root, 'ran');
    writeFileSync(join(p.project, 'env.sh'), `echo x >> ${JSON.stringify(mark)}\n`);
    const env = envWith({ HOME: p.home, BASH_ENV: './env.sh' });
    const runs = [0, 1].flatMap((i) => [runLine(l.before, beforePayload('gemini', 's1', CALL, `c${i}`), p.project, env), runLine(l.after, afterPayload('gemini', 's1', CALL, `c${i}`, i), p.project, env)]);
    expect(readFileSync(mark, 'utf8')).toBe('x\n'.repeat(4)); // what no line can stop: the reason to tell
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const text = 'BASH_ENV names a file of the project, run before every hook command (loopwatch\'s too) and no hook line can keep it out';
    expect(runs[0]?.message).toContain(`loopwatch: ${text}`);
    expect(runs[0]?.message).not.toContain('env.sh');
    expect(runs[0]?.stderr).toContain(`loopwatch hook: ${text}`);
    expect(runs.slice(1).map((r) => r.message)).toEqual([undefined, undefined, undefined]);
    expect(runLine(l.before, beforePayload('gemini', 's2', CALL, 'c0'), p.project, env).message).toContain(text); // another session: told again
    const own = join(p.home, '.bash_env');
    writeFileSync(own, ':\n');
    const quiet = runLine(l.before, beforePayload('gemini', 's3', CALL, 'c0'), p.project, envWith({ HOME: p.home, BASH_ENV: own }));
    expect(quiet).toEqual({ code: 0, message: undefined, stderr: '' });
  });

  it('should tell LD_PRELOAD naming a library of the project', async () => {
    const p = place();
    const l = await lines(p.home);
    const r = runLine(l.before, beforePayload('gemini', 's1', CALL, 'c0'), p.project, envWith({ HOME: p.home, LD_PRELOAD: `${p.project}/missing.so` }));
    expect(r.code, r.stderr).toBe(0);
    expect(r.message).toContain('loopwatch: LD_PRELOAD names a file of the project');
    expect(existsSync(join(p.project, 'missing.so'))).toBe(false);
  });
});
