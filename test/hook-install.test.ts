/**
 * `loopwatch hook install|uninstall` on temporary home and project folders: loopwatch's entries merged
 * into each agent's settings file beside what is there (installing twice changes nothing), a backup of a
 * file it changes, exactly its own entries removed, a file it cannot read left alone; and the command it
 * installs runs. The commands run in the test's process (hookVerbInProcess, with the temporary HOME and
 * project folder as their environment and folder), but the install whose command is run: that one is a
 * `loopwatch` process, whose entry passes its own environment, folder and script.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentName } from '../src/hooks/hook-agent.js';
import { installTarget, isLoopwatchCommand } from '../src/hooks/install-targets.js';
import type { CliRun } from './helpers/cli.js';
import { AGENTS, fixture, loopwatchAsync } from './helpers/hook-payloads.js';
import { hookVerbInProcess, loadHookVerbs } from './helpers/hook-in-process.js';
import { tempFolder } from './helpers/temp-folder.js';

beforeAll(loadHookVerbs, 180_000); // the modules of the commands run here, loaded outside the tests' clocks

interface Place {
  home: string;
  project: string;
  env: NodeJS.ProcessEnv;
}

function place(): Place {
  const root = tempFolder('hook-install');
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(home);
  mkdirSync(project);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  delete env.CODEX_HOME;
  delete env.CLAUDE_CONFIG_DIR;
  delete env.LOOPWATCH_STATE_DIR;
  delete env.XDG_STATE_HOME;
  return { home, project, env };
}

function run(p: Place, args: readonly string[]): Promise<CliRun> {
  return hookVerbInProcess(args, p.env, p.project);
}

function settingsPath(p: Place, agent: AgentName, scope: 'user' | 'project'): string {
  return installTarget(agent, scope, p.project, p.env).path;
}

function read(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

function backups(path: string): string[] {
  return readdirSync(dirname(path)).filter((n) => n.startsWith(`${path.split('/').pop()}.bak-`));
}

/** Loopwatch's handlers in a settings object, per event. */
function ownHandlers(settings: Record<string, unknown>): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const [event, groups] of Object.entries((settings.hooks ?? {}) as Record<string, { hooks: { command?: string }[] }[]>)) {
    const own = groups.flatMap((g) => g.hooks.filter((h) => isLoopwatchCommand(h.command)));
    if (own.length > 0) out[event] = own;
  }
  return out;
}

/** Settings a user already has: other keys, another hook on one of loopwatch's events. */
function existing(agent: AgentName): Record<string, unknown> {
  const event = agent === 'gemini' ? 'BeforeTool' : 'PreToolUse';
  return { model: 'some-model', hooks: { [event]: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'audit-log.sh' }] }], Stop: [{ hooks: [{ type: 'command', command: 'notify.sh' }] }] } };
}

describe.each(AGENTS)('hook install --agent %s', (agent) => {
  it('should add its entries once, keep a backup of the file it changed, and remove exactly them', async () => {
    const p = place();
    const path = settingsPath(p, agent, 'user');
    mkdirSync(dirname(path), { recursive: true });
    const before = `${JSON.stringify(existing(agent), null, 4)}\n`;
    writeFileSync(path, before);

    const first = await run(p, ['install', '--agent', agent]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`loopwatch hook install: ${path}`);
    expect(first.stdout).toMatch(/\n {2}added {6}/);
    const installed = readFileSync(path, 'utf8');
    expect(installed).toMatch(/\n {4}"hooks"/); // the file's own indentation
    const own = ownHandlers(read(path));
    expect(Object.keys(own).sort()).toEqual(installTarget(agent, 'user', p.project, p.env).events.map((e) => e.event).sort());
    // the new-prompt event gives a stopped session its fresh start
    expect(Object.keys(own)).toContain(agent === 'gemini' ? 'BeforeAgent' : 'UserPromptSubmit');
    expect(Object.values(own).every((h) => h.length === 1)).toBe(true);
    expect(backups(path)).toHaveLength(1);
    expect(readFileSync(join(dirname(path), backups(path)[0] as string), 'utf8')).toBe(before);

    const again = await run(p, ['install', '--agent', agent]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/nothing to change, loopwatch is installed already/);
    expect(readFileSync(path, 'utf8')).toBe(installed);
    expect(backups(path)).toHaveLength(1);

    const off = await run(p, ['uninstall', '--agent', agent]);
    expect(off.code).toBe(0);
    expect(off.stdout).toMatch(/\n {2}removed {4}/);
    // the file as it was, byte for byte, and install's backup no longer needed
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(off.stdout).toContain('  restored   the file as it was before install; its backup is removed');
    expect(backups(path)).toEqual([]);
    expect((await run(p, ['uninstall', '--agent', agent])).stdout).toMatch(/nothing to change, loopwatch is not installed there/);
  });

  it('should keep the file\'s own formatting, and leave no empty hooks object behind', async () => {
    const p = place();
    const path = settingsPath(p, agent, 'user');
    mkdirSync(dirname(path), { recursive: true });
    const before = '{\n    "model": "some-model",\n    "permissions": { "allow": ["Bash(npm test)", "Read"], "deny": [] },\n    "env": {"A": "1"}\n}\n';
    writeFileSync(path, before);
    expect((await run(p, ['install', '--agent', agent])).code).toBe(0);
    const installed = readFileSync(path, 'utf8');
    expect(installed.startsWith('{\n    "model": "some-model",\n    "permissions": { "allow": ["Bash(npm test)", "Read"], "deny": [] },\n    "env": {"A": "1"},\n    "hooks": {\n        "')).toBe(true);
    const off = await run(p, ['uninstall', '--agent', agent]);
    expect(off.code).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(read(path).hooks).toBeUndefined();
    expect(backups(path)).toEqual([]);
  });

  it('should remove a file (and folder) install made, and keep what the user changed since, with a backup', async () => {
    const p = place();
    expect((await run(p, ['install', '--agent', agent, '--project'])).code).toBe(0);
    const path = settingsPath(p, agent, 'project');
    const off = await run(p, ['uninstall', '--agent', agent, '--project']);
    expect(off.stdout).toContain('  removed    the file: install had made it, and nothing else is in it\n');
    expect(existsSync(path)).toBe(false);
    expect(existsSync(dirname(path))).toBe(false);

    const user = settingsPath(p, agent, 'user');
    mkdirSync(dirname(user), { recursive: true });
    writeFileSync(user, '{"model": "a"}\n');
    expect((await run(p, ['install', '--agent', agent])).code).toBe(0);
    const [first] = backups(user);
    writeFileSync(user, readFileSync(user, 'utf8').replace('"model": "a"', '"model": "b"'));
    const changed = await run(p, ['uninstall', '--agent', agent]);
    expect(readFileSync(user, 'utf8')).toBe('{"model": "b"}\n');
    expect(changed.stdout).toContain(`  backup     ${join(dirname(user), first as string)} (kept: not the file as it is now)\n`);
    expect(backups(user)).toHaveLength(2);
  });

  it('should replace its entries when installed with other options, and write the project\'s file with --project', async () => {
    const p = place();
    expect((await run(p, ['install', '--agent', agent, '--project'])).code).toBe(0);
    const path = settingsPath(p, agent, 'project');
    expect(path.startsWith(p.project)).toBe(true);
    const r = await run(p, ['install', '--agent', agent, '--project', '--state-dir', 'state', '--fail-closed', '--log', 'decisions.jsonl']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\n {2}updated {4}/);
    expect(r.stdout).toMatch(/\n {2}backup {5}/);
    const own = Object.values(ownHandlers(read(path))).flat() as { command: string }[];
    expect(own.length).toBe(installTarget(agent, 'project', p.project, p.env).events.length);
    for (const h of own) expect(h.command).toContain(`--agent ${agent} --state-dir ${join(p.project, 'state')} --fail-closed --log ${join(p.project, 'decisions.jsonl')}`);
    expect(existsSync(settingsPath(p, agent, 'user'))).toBe(false);
  });

  it('should leave a file it cannot parse, or whose hooks have another shape, as it is', async () => {
    const p = place();
    const path = settingsPath(p, agent, 'user');
    mkdirSync(dirname(path), { recursive: true });
    const jsonc = '{\n  // my settings\n  "model": "x"\n}\n';
    writeFileSync(path, jsonc);
    const r = await run(p, ['install', '--agent', agent]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${path}: not plain JSON at line 2, column 3`);
    expect(r.stderr).toMatch(/nothing was changed/);
    expect(readFileSync(path, 'utf8')).toBe(jsonc);
    const event = agent === 'gemini' ? 'AfterTool' : 'PostToolUse';
    const odd = JSON.stringify({ hooks: { [event]: { matcher: '*' } } });
    writeFileSync(path, odd);
    const shape = await run(p, ['install', '--agent', agent]);
    expect(shape.code).toBe(2);
    expect(shape.stderr).toContain(`${path}: "hooks.${event}" is an object, not an array; nothing was changed`);
    expect(readFileSync(path, 'utf8')).toBe(odd);
    expect(backups(path)).toEqual([]);
  });

  it('should install a command that runs the hook', async () => {
    const p = place();
    // a process: HOME, the folder a relative --state-dir is taken from and the hook's entry are the process's own
    expect((await loopwatchAsync(['hook', 'install', '--agent', agent, '--state-dir', 'state'], '', p.env, p.project)).code).toBe(0);
    const [handler] = Object.values(ownHandlers(read(settingsPath(p, agent, 'user')))).flat() as { command: string }[];
    expect(handler?.command).toMatch(/dist\/hook\/hook-main\.cjs --agent/);
    const out = execFileSync('/bin/sh', ['-c', handler?.command as string], { input: JSON.stringify(fixture(agent, 'before.json')), encoding: 'utf8', env: p.env });
    expect(out).toBe('');
    expect(readdirSync(join(p.project, 'state')).some((n) => n.endsWith('.lwhook'))).toBe(true);
  });
});

describe('hook install flags', () => {
  it('should need --agent, and refuse --user with --project', async () => {
    const p = place();
    const none = await run(p, ['install']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/install needs --agent \(claude-code, codex, gemini\)/);
    const both = await run(p, ['install', '--agent', 'codex', '--user', '--project']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--user and --project cannot be used together/);
  });

  it('should follow CODEX_HOME and CLAUDE_CONFIG_DIR', async () => {
    const p = place();
    p.env.CODEX_HOME = join(p.home, 'codex-home');
    p.env.CLAUDE_CONFIG_DIR = join(p.home, 'claude-config');
    const codex = await run(p, ['install', '--agent', 'codex']);
    expect(codex.code).toBe(0);
    // codex exec 0.171 skips an untrusted hook without a word: install says how it gets to run
    expect(codex.stdout).toContain('until then codex exec skips it without a word (automation that vets its hooks: codex exec --dangerously-bypass-hook-trust)');
    expect((await run(p, ['install', '--agent', 'claude-code'])).code).toBe(0);
    expect(existsSync(join(p.home, 'codex-home', 'hooks.json'))).toBe(true);
    expect(existsSync(join(p.home, 'claude-config', 'settings.json'))).toBe(true);
  });
  it("should give Codex's SessionEnd the 3 s Codex allows, and mend an install that gave it 10", async () => {
    // Codex 0.171 clamps a SessionEnd hook's timeout to 3 s and shows "clamping SessionEnd hook timeout to 3s
    // in .../hooks.json" under Issues in /hooks, for every user of a fresh install (seen in the real codex)
    const p = place();
    p.env.CODEX_HOME = join(p.home, 'codex-home');
    expect((await run(p, ['install', '--agent', 'codex', '--agent-version', '0.171.0'])).code).toBe(0);
    const path = join(p.home, 'codex-home', 'hooks.json');
    const timeouts = (): Record<string, unknown> =>
      Object.fromEntries(Object.entries(ownHandlers(read(path))).map(([event, hs]) => [event, (hs[0] as { timeout?: unknown }).timeout]));
    expect(timeouts()).toEqual({ PreToolUse: 10, PostToolUse: 10, UserPromptSubmit: 10, SessionEnd: 3 });
    // an install from before: SessionEnd at 10 s; installing again sets it to 3 and leaves the rest alone
    const before = readFileSync(path, 'utf8');
    const old = JSON.parse(before) as { hooks: Record<string, { hooks: { timeout: number }[] }[]> };
    (old.hooks.SessionEnd as { hooks: { timeout: number }[] }[])[0]!.hooks[0]!.timeout = 10;
    writeFileSync(path, JSON.stringify(old, null, 2) + '\n');
    const again = await run(p, ['install', '--agent', 'codex', '--agent-version', '0.171.0']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/SessionEnd/);
    expect(timeouts()).toEqual({ PreToolUse: 10, PostToolUse: 10, UserPromptSubmit: 10, SessionEnd: 3 });
    expect(readFileSync(path, 'utf8')).toBe(before);
    const third = await run(p, ['install', '--agent', 'codex', '--agent-version', '0.171.0']);
    expect(third.stdout).toContain('nothing to change');
  });
  it('should say that a Codex older than 0.145 sends no SessionEnd, and a newer one nothing of it', async () => {
    // walked: codex 0.130.0 lists the other three entries in /hooks, ignores SessionEnd without a word, and its
    // /quit leaves the session's state behind; 0.144.6's binary names no SessionEnd event, 0.145.0's does
    const p = place();
    p.env.CODEX_HOME = join(p.home, 'codex-home');
    const old = await run(p, ['install', '--agent', 'codex', '--agent-version', '0.130.0']);
    expect(old.code).toBe(0);
    expect(old.stdout).toContain("codex 0.130.0 sends no SessionEnd (0.145.0 and later do) and ignores that entry: a session's state stays after it ends, until the weekly sweep (7 days) or loopwatch hook reset");
    const current = await run(p, ['install', '--agent', 'codex', '--agent-version', '0.145.0']);
    expect(current.code).toBe(0);
    expect(current.stdout).not.toContain('sends no SessionEnd');
  });
});
