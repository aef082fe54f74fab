/**
 * docs/hooks.md's settings samples (one JSON block per agent: Claude Code, Codex CLI, Gemini CLI) are what
 * `loopwatch hook install --agent NAME` writes: the same events, each with the same entry, the command's
 * paths aside. A new user who adds the entries by hand (a JSONC file install leaves alone, a linked file)
 * copies the sample; the Claude Code one lacked SubagentStop and Interrupt, which install writes (newuser33).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentName } from '../src/hooks/hook-agent.js';
import { installTarget } from '../src/hooks/install-targets.js';
import { hookVerbInProcess, loadHookVerbs } from './helpers/hook-in-process.js';
import { tempFolder } from './helpers/temp-folder.js';

beforeAll(loadHookVerbs, 180_000);

const DOC = readFileSync(fileURLToPath(new URL('../docs/hooks.md', import.meta.url)), 'utf8');
const AGENTS: readonly AgentName[] = ['claude-code', 'codex', 'gemini'];

/** The settings sample of `agent` in docs/hooks.md (the ```json block whose top key is "hooks" and whose commands name it). */
function docSample(agent: AgentName): unknown {
  const blocks = [...DOC.matchAll(/```json\n(\{\n {2}"hooks"[\s\S]*?)```/g)].map((m) => m[1] ?? '');
  const found = blocks.filter((b) => b.includes(`--agent ${agent}"`));
  expect(found, `one settings sample for ${agent}`).toHaveLength(1);
  return JSON.parse(found[0] ?? '');
}

/** `value` with every hook command's Node and package paths replaced by one placeholder (the `env -u ...` before them kept), keys sorted. */
function normalised(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]));
    if (typeof v === 'string') return v.replace(/(?<!\S)\S+ \S+\/dist\/hook\/hook-main\.cjs /, 'NODE HOOK ').replace(/ --agent-version \S+/, '');
    return v;
  };
  return JSON.stringify(sort(value), null, 1);
}

describe('docs/hooks.md settings samples', () => {
  for (const agent of AGENTS) {
    it(`should show what hook install writes for ${agent}`, async () => {
      const root = tempFolder('docs-hook-samples');
      const home = join(root, 'home');
      const project = join(root, 'project');
      mkdirSync(home);
      mkdirSync(project);
      const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
      for (const name of ['CODEX_HOME', 'CLAUDE_CONFIG_DIR', 'LOOPWATCH_STATE_DIR', 'XDG_STATE_HOME']) delete env[name];
      const r = await hookVerbInProcess(['install', '--agent', agent, '--agent-version', '99.0.0'], env, project);
      expect(r.code, r.stderr).toBe(0);
      const written: unknown = JSON.parse(readFileSync(installTarget(agent, 'user', project, env).path, 'utf8'));
      expect(normalised(docSample(agent))).toBe(normalised(written));
    }, 60_000);
  }
});
