/**
 * A cloned project's `.loopwatch.json` could still switch every warning off with rules narrow one by one
 * that together cover everything (`^a` … `^z`, `^[a-m]` beside `^[n-z]` and `^[^a-z]`, split between `Bash`
 * and any tool), or with rules naming the agent's own tools (`Read`, `Edit`, ...) whole: each rule passed
 * the catch-all check of hostile11 alone. Now a project's rules are judged together (covering-rules.ts),
 * against 64 probes (12 written out, 52 generated from a fixed seed), and the notice says how the user can
 * accept them (their own `--config`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectAllowlist } from '../src/hooks/project-allowlist.js';
import { resolveAllow } from '../src/options/allow-rules.js';
import { AGENT_TOOLS, COVER_LIMIT, refusedRules } from '../src/options/covering-rules.js';
import { FIXED_PROBES, GENERATED_PROBE_COUNT, PROBE_COMMANDS, PROBE_SEED, generatedProbes } from '../src/options/probe-commands.js';
import { afterPayload, beforePayload, hook, proposeAction } from './helpers/hook-payloads.js';
import { hookInProcess } from './helpers/hook-in-process.js';
import { tempFolder } from './helpers/temp-folder.js';

/** A git project whose `.loopwatch.json` holds `allow`; returns its folder, its file and a state folder. */
function project(allow: unknown): { cwd: string; file: string; stateDir: string } {
  const root = tempFolder('allow-together');
  const cwd = join(root, 'project');
  mkdirSync(join(cwd, '.git'), { recursive: true });
  const file = join(cwd, '.loopwatch.json');
  writeFileSync(file, JSON.stringify({ allow }));
  return { cwd, file, stateDir: join(root, 'state') };
}

const letters = 'abcdefghijklmnopqrstuvwxyz'.split('');
const refused = (rules: readonly object[]) => refusedRules(resolveAllow(rules)).map((r) => r.index);

describe('probe commands', () => {
  it('should be the same on every run: twelve written out, the rest from a fixed seed', () => {
    expect(PROBE_COMMANDS).toHaveLength(FIXED_PROBES.length + GENERATED_PROBE_COUNT);
    expect(PROBE_COMMANDS.slice(FIXED_PROBES.length)).toEqual(generatedProbes(PROBE_SEED, GENERATED_PROBE_COUNT));
    expect(new Set(PROBE_COMMANDS).size).toBe(PROBE_COMMANDS.length);
    expect(PROBE_COMMANDS.slice(12, 16)).toEqual(['psql --yes "up /etc/passwd"', 'jq apply', '{ awk', '>kNqtd']);
    expect(generatedProbes(PROBE_SEED + 1, 8)).not.toEqual(generatedProbes(PROBE_SEED, 8));
  });
});

describe("a project's rules judged together", () => {
  it('should refuse narrow rules that together cover every command, for any tool or one shell tool', () => {
    const sets: Record<string, object[]> = {
      'a to z': letters.map((c) => ({ command: `^${c}` })),
      'A to Z and digits, any case': [...letters.map((c) => ({ command: `^${c.toUpperCase()}` })), ...letters.map((c) => ({ command: `^${c}` })), { command: '^[0-9]' }],
      'three ranges': [{ command: '^[a-m]' }, { command: '^[n-z]' }, { command: '^[^a-z]' }],
      'split between Bash and any tool': [{ command: '^[a-d]' }, { tool: 'Bash', command: '^[e-m]' }, { tool: 'Bash', command: '^[n-r]' }, { tool: 'Bash', command: '^[s-z]' }],
      'one letter each, for Bash': letters.map((c) => ({ tool: 'Bash', command: `^${c}` })),
      'one vowel each': ['a', 'e', 'i', 'o', 'u'].map((c) => ({ command: c })),
    };
    for (const [name, rules] of Object.entries(sets)) {
      const ids = refused(rules);
      expect(ids, name).toEqual(rules.map((_, i) => i));
      expect(refusedRules(resolveAllow(rules)).at(-1)?.why, name).toMatch(/^with the \d+ other rules for (any tool|Bash), it matches \d+ of 64 unrelated commands$/);
    }
  });

  it("should refuse a rule allowing every call of one of the agent's own tools, and keep a polled tool's", () => {
    const rules = [...AGENT_TOOLS].map((tool) => ({ tool }));
    expect(refused(rules)).toEqual(rules.map((_, i) => i));
    expect(refusedRules(resolveAllow([{ tool: 'Read' }]))).toEqual([{ index: 0, why: "it allows every call of Read, one of the agent's own tools" }]);
    expect(refused([{ tool: 'job_status' }, { tool: 'write_stdin' }, { tool: 'mcp__ci__wait_for_build' }])).toEqual([]);
  });

  it('should keep the rules a project lists for the calls meant to repeat', () => {
    const rules = [
      { command: '^npx tsc --noEmit$' },
      { command: '^npm (run )?test\\b' },
      { command: 'pytest|cargo test|npm test' },
      { tool: 'Bash', command: '^git (status|diff)( |$)' },
      { command: '^make -j4$' },
      { command: '^(npm|pnpm|yarn) run (lint|build)\\b' },
      { command: '^cargo (check|clippy|test)\\b' },
      { command: '^go (test|vet) \\./\\.\\.\\.$' },
      { command: '^docker compose ps$' },
      { command: '^gh run (watch|view)\\b' },
      { tool: 'job_status' },
    ];
    expect(refused(rules)).toEqual([]);
  });

  it('should refuse, in a hook, a file whose rules cover every command together, and keep warning', async () => {
    const { cwd, file, stateDir } = project(letters.map((c) => ({ command: `^${c}` })));
    const got = projectAllowlist(cwd, stateDir);
    expect(got.rules).toEqual([]);
    expect(got.notice).toMatch(new RegExp(`^loopwatch: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not used \\(refused as too broad: allow\\[0\\] \\{"command":"\\^a"\\} \\(with the 25 other rules for any tool, it matches \\d+ of 64 unrelated commands\\); .* and 23 more \\(to allow these anyway, copy them to the "allow" of your own --config file\\)\\); calls are checked without its allowlist$`));
    const call = { tool: 'Bash', args: { command: 'python setup.py build_ext --inplace' }, error: 'error: command "gcc" failed with exit status 1' };
    const actions: string[] = [];
    for (let i = 0; i < 5; i++) {
      const run = i === 0 ? hook : hookInProcess; // the first through a real hook process: the wiring
      const before = await run(['--agent', 'claude-code', '--state-dir', stateDir], { ...beforePayload('claude-code', 'together', call, `toolu_tg_${i}`), cwd });
      expect(before.code).toBe(0);
      actions.push(proposeAction('claude-code', before.stdout));
      if (actions[i] === 'deny' || actions[i] === 'stop') continue;
      await hookInProcess(['--agent', 'claude-code', '--state-dir', stateDir], { ...afterPayload('claude-code', 'together', call, `toolu_tg_${i}`, i), cwd });
    }
    expect(actions.slice(1)).toEqual(['allow', 'warn', 'deny', 'stop']); // as without the file
  }, 60_000);

  it('should not count more than the limit: the limit is a quarter of the probes', () => {
    expect(COVER_LIMIT).toBe(16);
  });
});
