/**
 * A project's allowlist (`.loopwatch.json`, from the payload's cwd up to the git root) through `loopwatch
 * hook` as each agent runs it: an allowed command is never warned, denied or stopped for repeating; the
 * file is untrusted input: one that cannot be used is ignored (the calls are checked as without it) and
 * the user is told once, in the agent's reply (`systemMessage`) and on stderr; the hook never fails.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { accept } from '../src/hooks/accepted-allowlists.js';
import type { AgentName } from '../src/hooks/hook-agent.js';
import { acceptedPath } from '../src/hooks/project-allowlist.js';
import type { LiveAction } from '../src/index.js';
import type { CliRun } from './helpers/cli.js';
import { AGENTS, afterPayload, beforePayload, hook, proposeAction } from './helpers/hook-payloads.js';
import { trustInTerminal } from './helpers/trust-terminal.js';
import { hookInProcess } from './helpers/hook-in-process.js';
import type { ScriptedCall } from './helpers/live-scenarios.js';

const root = mkdtempSync(join(tmpdir(), 'loopwatch-hook-allow-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const stateDir = join(root, 'state');

/** A project folder (a git repository unless `git` is false) with `.loopwatch.json` holding `text`; returns a folder inside it. */
function project(name: string, text: string | null, git = true): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'src', 'deep'), { recursive: true });
  if (git) mkdirSync(join(dir, '.git'));
  if (text !== null) writeFileSync(join(dir, '.loopwatch.json'), text);
  return join(dir, 'src', 'deep');
}

function build(agent: AgentName): ScriptedCall {
  return { tool: agent === 'gemini' ? 'run_shell_command' : 'Bash', args: { command: 'python setup.py build_ext --inplace' }, error: 'error: command "gcc" failed with exit status 1' };
}

interface Step {
  readonly action: LiveAction;
  readonly before: CliRun;
  readonly after: CliRun | null;
}

/**
 * The failing build `times` times in one session whose agent works in `cwd`: the first and every third
 * after it through hook processes, the others through the hook command in this process (a hook process is
 * ~0.1 CPU-s, this ~3 ms), on the same state files.
 */
async function builds(agent: AgentName, session: string, cwd: string, times: number): Promise<Step[]> {
  const steps: Step[] = [];
  for (let i = 0; i < times; i++) {
    const id = `toolu_${session}_${i}`;
    const c = build(agent);
    const run = i % 3 === 0 ? hook : hookInProcess;
    const before = await run(['--agent', agent, '--state-dir', stateDir], { ...beforePayload(agent, session, c, id), cwd });
    expect(before.code).toBe(0);
    const action = proposeAction(agent, before.stdout);
    const after = action === 'deny' || action === 'stop' ? null : await run(['--agent', agent, '--state-dir', stateDir], { ...afterPayload(agent, session, c, id, i), cwd });
    steps.push({ action, before, after });
  }
  return steps;
}

const ALLOW = JSON.stringify({ allow: [{ command: '^python setup\\.py build_ext\\b' }] });

describe.each(AGENTS)('a project allowlist (%s)', (agent) => {
  it('should never warn, deny or stop an allowed command once the file is accepted, from a folder below the git root, and say once that the file is in use', async () => {
    const cwd = project(`${agent}-allowed`, ALLOW);
    const file = join(root, `${agent}-allowed`, '.loopwatch.json');
    const trusted = await trustInTerminal([], process.env, cwd); // the file found from the folder, as the hooks find it
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toBe(`loopwatch hook trust: accepted ${file} as it is now (a change to it must be accepted again): 1 rule lets calls repeat without a warning\n  allow[0] {"command":"^python setup\\\\.py build_ext\\\\b"}\n`);
    const steps = await builds(agent, `${agent}-allowed`, cwd, 6);
    const told = `loopwatch: ${file} is in use: 1 rule lets calls repeat without a warning`;
    expect(steps[0]?.before.stderr).toBe(`loopwatch hook: ${told}\n`);
    expect(JSON.parse(steps[0]?.before.stdout as string)).toEqual({ systemMessage: told }); // the notice only: no warning
    expect(steps.map((s) => s.before.stdout + (s.after?.stdout ?? '')).slice(1)).toEqual(Array(5).fill(''));
    expect(steps.map((s) => s.before.stderr + (s.after?.stderr ?? '')).slice(1)).toEqual(Array(5).fill(''));
    expect(steps[0]?.after?.stdout).toBe('');
  }, 120_000);

  it('should ignore a file that cannot be used, check the calls as without it, and say so once', async () => {
    const cwd = project(`${agent}-unsafe`, JSON.stringify({ allow: [{ command: '(a+)+$' }] }));
    const steps = await builds(agent, `${agent}-unsafe`, cwd, 5);
    const told = steps.flatMap((s) => [s.before, ...(s.after === null ? [] : [s.after])]).filter((r) => r.stderr !== '');
    expect(told).toHaveLength(1);
    expect(told[0]?.stderr).toMatch(/^loopwatch hook: loopwatch: .*\.loopwatch\.json is not used \(options\.allow\[0\]\.command must match in linear time, but "\(a\+\)\+\$" \(string\) has a quantified group that holds a quantifier or an alternation\); calls are checked without its allowlist\n$/);
    const first = JSON.parse(steps[0]?.before.stdout as string) as { systemMessage?: string };
    expect(first.systemMessage).toMatch(/\.loopwatch\.json is not used/);
    expect(steps.map((s) => s.action).slice(1)).toEqual(['allow', 'warn', 'deny', 'stop']);
  }, 120_000);
});

describe('project allowlist files', () => {
  it('should ignore a file that is not JSON or holds other keys, telling each version of it once', async () => {
    const cwd = project('broken', '{"allow": [');
    const [a] = await builds('claude-code', 'broken-1', cwd, 1);
    expect(a?.before.stderr).toMatch(/\.loopwatch\.json is not used \(not JSON/);
    const [b] = await builds('claude-code', 'broken-2', cwd, 1);
    expect(b?.before.stderr).toBe('');
    writeFileSync(join(root, 'broken', '.loopwatch.json'), JSON.stringify({ allow: [], ignore: ['x'] }));
    const [c] = await builds('claude-code', 'broken-3', cwd, 1);
    expect(c?.before.stderr).toMatch(/is not used \("ignore" is not a key it may hold \(only "allow"\)\)/);
  }, 60_000);

  it('should not look above the working directory outside a git repository', async () => {
    const cwd = project('no-git', ALLOW, false);
    accept(acceptedPath(join(root, 'no-git', '.loopwatch.json')), ALLOW); // accepted: not read from below all the same
    const steps = await builds('codex', 'no-git', cwd, 5);
    expect(steps.map((s) => s.action)).toEqual(['allow', 'allow', 'warn', 'deny', 'stop']);
  }, 60_000);
});
