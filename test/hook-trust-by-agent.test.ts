/**
 * An agent cannot accept a project's `.loopwatch.json` by running `loopwatch hook trust` when a README or a
 * tool's output tells it to (src/hooks/agent-caller.ts, src/cli/hook-trust-command.ts): run without a
 * terminal (Claude Code's Bash), with an agent's variable (CLAUDECODE), or in a pty under an agent's process
 * (Codex's and Gemini CLI's), it refuses and nothing is accepted; the person in their own terminal accepts.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAccepted } from '../src/hooks/accepted-allowlists.js';
import { AGENT_VARIABLES, type ProcessTable, agentCaller } from '../src/hooks/agent-caller.js';
import { acceptedPath } from '../src/hooks/project-allowlist.js';
import { loopwatchAsync } from './helpers/hook-payloads.js';
import { tempFolder } from './helpers/temp-folder.js';
import { trustInTerminal } from './helpers/trust-terminal.js';

/** A project with an allowlist, a state home of its own; the env to run in. */
function project(): { file: string; text: string; env: NodeJS.ProcessEnv } {
  const root = tempFolder('trust-agent');
  const file = join(root, 'p', '.loopwatch.json');
  mkdirSync(join(root, 'p', '.git'), { recursive: true });
  const text = JSON.stringify({ allow: [{ tool: 'Bash', command: '^npm test\\b' }] });
  writeFileSync(file, text);
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_STATE_HOME: join(root, 'state') };
  for (const v of AGENT_VARIABLES) delete env[v];
  return { file, text, env };
}

const accepted = (p: { file: string; text: string; env: NodeJS.ProcessEnv }): boolean => isAccepted(acceptedPath(p.file), p.text, p.env);

describe('loopwatch hook trust run by an agent', () => {
  it('should refuse without a terminal on stdin, as Claude Code runs a command', async () => {
    const p = project();
    const r = await loopwatchAsync(['hook', 'trust', p.file], '', p.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^loopwatch hook trust: refused: its input is not a terminal\. .*Nothing was accepted\.\n$/);
    expect(accepted(p)).toBe(false);
  });

  it('should refuse in a terminal whose environment has an agent\'s variable', async () => {
    const p = project();
    const r = await trustInTerminal([p.file], { ...p.env, CLAUDECODE: '1' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/refused: its environment has CLAUDECODE/);
    expect(accepted(p)).toBe(false);
  });

  it('should refuse with the variables Codex CLI 0.171 and Gemini CLI 0.61 were seen to set (s21: npm not the installer, no sandbox)', async () => {
    const p = project();
    // Codex 0.171 under danger-full-access, installed otherwise than by npm: no CODEX_SANDBOX*, no CODEX_MANAGED_BY_NPM
    for (const seen of [{ CODEX_THREAD_ID: '01a24c09-3986-7841-aa05-50e360b92171', CODEX_CI: '1', CODEX_TOOL_CALL_ID: 'call_1' }, { GEMINI_CLI: '1' }]) {
      const r = await trustInTerminal([p.file], { ...p.env, ...seen });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/refused: its environment has (CODEX_THREAD_ID|GEMINI_CLI)/);
    }
    expect(accepted(p)).toBe(false);
  });

  it('should refuse in a pty made by a process named as an agent (Codex, Gemini CLI)', async () => {
    const p = project();
    const bin = tempFolder('trust-agent-bin');
    symlinkSync('/usr/bin/script', join(bin, 'codex'));
    const r = await trustInTerminal([p.file], p.env, undefined, join(bin, 'codex'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/refused: it runs under "codex" \(pid \d+\), an agent's process/);
    expect(accepted(p)).toBe(false);
  });

  it('should accept in the person\'s own terminal', async () => {
    const p = project();
    const r = await trustInTerminal([p.file], p.env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(accepted(p)).toBe(true);
  });
});

describe('agentCaller', () => {
  const table = (procs: Record<number, { parent: number; names: string[] }>): ProcessTable => ({
    parentOf: (pid) => procs[pid]?.parent ?? null,
    namesOf: (pid) => procs[pid]?.names ?? [],
  });

  it('should find node running an agent\'s package up the chain, and nothing in a plain terminal', () => {
    const chain = { 40: { parent: 30, names: ['bash', 'bash'] }, 30: { parent: 20, names: ['node', 'node', '/usr/lib/node_modules/@google/gemini-cli/dist/index.js'] }, 20: { parent: 1, names: ['sshd'] } };
    expect(agentCaller(true, {}, 40, table(chain))).toMatch(/runs under "index\.js" \(pid 30\)/);
    expect(agentCaller(true, {}, 40, table({ 40: { parent: 20, names: ['bash'] }, 20: { parent: 1, names: ['sshd', 'sshd: me@pts/0'] } }))).toBeNull();
  });

  it('should stop at a cycle or a chain too long', () => {
    expect(agentCaller(true, {}, 5, table({ 5: { parent: 6, names: ['sh'] }, 6: { parent: 5, names: ['sh'] } }))).toBeNull();
  });
});
