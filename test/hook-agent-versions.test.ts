/**
 * Agents' versions: Codex before 0.129 refuses a PreToolUse `additionalContext` (the hook counts as failed
 * and the warning is lost), Claude Code reads it only from 2.1.9, Gemini CLI runs hooks without a setting
 * from 0.26. `hook install` asks the agent its version, says what it means and writes it into the command;
 * the hook reads the version of the session's transcript (else the installed one) and, where the agent
 * cannot take a warning before a call, gives it after the call, with its result.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentName } from '../src/hooks/hook-agent.js';
import { installTarget } from '../src/hooks/install-targets.js';
import type { CliRun } from './helpers/cli.js';
import { afterPayload, beforePayload, hook } from './helpers/hook-payloads.js';
import { hookInProcess, hookVerbInProcess, loadHookVerbs } from './helpers/hook-in-process.js';
import type { ScriptedCall } from './helpers/live-scenarios.js';

beforeAll(loadHookVerbs, 180_000); // the modules of the commands run here, loaded outside the tests' clocks

const root = mkdtempSync(join(tmpdir(), 'loopwatch-hook-versions-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const stateDir = join(root, 'state');

/** A home folder and a PATH holding only fake agents that print `versions`. */
function place(name: string, versions: Partial<Record<'claude' | 'codex' | 'gemini', string>>): { env: NodeJS.ProcessEnv; home: string } {
  const home = join(root, name, 'home');
  const bin = join(root, name, 'bin');
  mkdirSync(home, { recursive: true });
  mkdirSync(bin, { recursive: true });
  for (const [command, out] of Object.entries(versions)) {
    writeFileSync(join(bin, command), `#!/bin/sh\necho '${out}'\n`);
    chmodSync(join(bin, command), 0o755);
  }
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, PATH: bin };
  delete env.CODEX_HOME;
  delete env.CLAUDE_CONFIG_DIR;
  return { env, home };
}

function install(p: { env: NodeJS.ProcessEnv; home: string }, agent: AgentName): Promise<CliRun> {
  return hookVerbInProcess(['install', '--agent', agent], p.env, p.home);
}

function installedCommand(p: { env: NodeJS.ProcessEnv; home: string }, agent: AgentName): string {
  const settings = JSON.parse(readFileSync(installTarget(agent, 'user', p.home, p.env).path, 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
  return Object.values(settings.hooks)[0]?.[0]?.hooks[0]?.command as string;
}

describe('hook install and the agent\'s version', () => {
  it('should say that Codex 0.126 takes no warning before a call, and write its version into the command', async () => {
    const p = place('codex-old', { codex: 'codex-cli 0.126.0' });
    const r = await install(p, 'codex');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  agent      codex 0.126.0\n');
    expect(r.stdout).toContain('  note       codex 0.126.0 reads no warning before a call (0.129.0 does): loopwatch gives warnings after the call instead, with its result; denials and stops are unchanged\n');
    expect(installedCommand(p, 'codex')).toMatch(/ --agent codex --agent-version 0\.126\.0$/);
    expect((await install(p, 'codex')).stdout).toMatch(/nothing to change/);
  });

  it('should say what a current Claude Code and an older Gemini CLI need', async () => {
    const p = place('mixed', { claude: '2.1.31 (Claude Code)', gemini: '0.25.2' });
    const claude = await install(p, 'claude-code');
    expect(claude.stdout).toContain('  agent      claude 2.1.31\n');
    expect(claude.stdout).not.toContain('  note       claude');
    const gemini = await install(p, 'gemini');
    expect(gemini.stdout).toContain('  note       gemini 0.25.2 runs hooks only with "hooksConfig": {"enabled": true} in settings.json');
  });

  it('should wait for an agent slow to say its version (Gemini CLI 0.61 took 6 to 8 s on a busy machine)', async () => {
    const p = place('slow', {});
    const bin = join(root, 'slow', 'bin');
    writeFileSync(join(bin, 'gemini'), `#!/bin/sh\n/bin/sleep 6\necho '0.61.0'\n`);
    chmodSync(join(bin, 'gemini'), 0o755);
    const r = await install(p, 'gemini');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  agent      gemini 0.61.0\n');
  }, 30_000);

  it('should assume a current agent when none answers, and take --agent-version instead of asking', async () => {
    const p = place('none', {});
    const r = await install(p, 'claude-code');
    expect(r.stdout).toContain('  agent      claude --version gave no version: assumed current (2.1.9 or later takes warnings before a call)\n');
    expect(installedCommand(p, 'claude-code')).toMatch(/ --agent claude-code$/);
    const given = await hookVerbInProcess(['install', '--agent', 'claude-code', '--agent-version', '2.1.3'], p.env, p.home);
    expect(given.stdout).toContain('  updated ');
    expect(installedCommand(p, 'claude-code')).toMatch(/ --agent-version 2\.1\.3$/);
    const bad = await hookVerbInProcess(['install', '--agent', 'codex', '--agent-version', 'latest'], p.env, p.home);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--agent-version must be a version such as 2\.1\.9, received "latest"/);
  });
});

const failing: ScriptedCall = { tool: 'Bash', args: { command: 'python setup.py build_ext --inplace' }, error: 'error: command "gcc" failed with exit status 1' };

/** The transcript of a session of `agent` at `version`, as the agent writes its first (Codex) or last (Claude Code) lines. */
function transcript(agent: 'codex' | 'claude-code', version: string): string {
  const path = join(root, `${agent}-${version}.jsonl`);
  const line =
    agent === 'codex'
      ? { timestamp: '2026-05-18T10:00:00.000Z', type: 'session_meta', payload: { id: 's', cwd: '/home/dev/app', originator: 'codex_cli_rs', cli_version: version } }
      : { parentUuid: null, isSidechain: false, type: 'user', cwd: '/home/dev/app', sessionId: 's', version, message: { role: 'user', content: 'build it' } };
  writeFileSync(path, `${JSON.stringify(line)}\n`);
  return path;
}

/**
 * The failing call three times (its third proposal warned): the proposals' and records' replies. The first
 * two calls through the hook command in this process (helpers/hook-in-process.ts, the same state files and
 * payloads), the third, whose replies are asserted, through hook processes.
 */
async function warned(agent: 'codex' | 'claude-code', session: string, transcriptPath: string, args: readonly string[] = []): Promise<{ propose: string[]; record: string[] }> {
  const out = { propose: [] as string[], record: [] as string[] };
  for (let i = 0; i < 3; i++) {
    const id = `toolu_${session}_${i}`;
    const run = i === 2 ? hook : hookInProcess;
    const b = await run(['--agent', agent, '--state-dir', stateDir, ...args], { ...beforePayload(agent, session, failing, id), transcript_path: transcriptPath });
    const a = await run(['--agent', agent, '--state-dir', stateDir, ...args], { ...afterPayload(agent, session, failing, id, i), transcript_path: transcriptPath });
    expect(b.stderr + a.stderr).toBe('');
    out.propose.push(b.stdout);
    out.record.push(a.stdout);
  }
  return out;
}

function context(reply: string): string | undefined {
  return reply === '' ? undefined : (JSON.parse(reply) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext;
}

describe.each(['codex', 'claude-code'] as const)('a warning where %s cannot take it before a call', (agent) => {
  const [old, current] = agent === 'codex' ? ['0.126.0', '0.130.0'] : ['2.1.3', '2.1.9'];

  it(`should give it after the call at ${old} (the transcript's version), before it at ${current}`, async () => {
    const before = await warned(agent, `${agent}-old`, transcript(agent, old));
    expect(before.propose[2]).toBe(''); // nothing Codex would refuse, nothing Claude Code would drop
    expect(context(before.record[2] as string)).toMatch(/^\[loopwatch\] You appear to be in a loop/);
    const now = await warned(agent, `${agent}-current`, transcript(agent, current));
    expect(context(now.propose[2] as string)).toMatch(/^\[loopwatch\] You appear to be in a loop/);
    expect(now.record[2]).toBe('');
  }, 60_000);

  it('should use the installed version when the transcript cannot be read', async () => {
    const r = await warned(agent, `${agent}-flag`, join(root, 'missing.jsonl'), ['--agent-version', old]);
    expect(r.propose[2]).toBe('');
    expect(context(r.record[2] as string)).toMatch(/^\[loopwatch\] You appear to be in a loop/);
  }, 60_000);
});
