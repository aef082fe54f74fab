/**
 * A cloned project's `.loopwatch.json` is read from the repository the agent works in: a catch-all rule
 * (`{"command": "."}`, `{"tool": "Bash"}`) used to turn every warning off, and nothing told the user. Now
 * a catch-all rule is refused (the file's other rules still apply), and a file in use is told once per
 * version: its path and how many rules it holds. The user's own `allow` option is theirs: not checked.
 */
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accept } from '../src/hooks/accepted-allowlists.js';
import { acceptedPath, projectAllowlist } from '../src/hooks/project-allowlist.js';
import { resolveAllow } from '../src/options/allow-rules.js';
import { PROBE_COMMANDS, catchAllRule } from '../src/options/catch-all-rule.js';
import { refusedRules } from '../src/options/covering-rules.js';
import { afterPayload, beforePayload, hook, proposeAction } from './helpers/hook-payloads.js';
import { hookInProcess } from './helpers/hook-in-process.js';
import { tempFolder } from './helpers/temp-folder.js';

/** A git project whose `.loopwatch.json` holds `allow`; returns its folder, its file and a state folder. */
function project(allow: unknown): { cwd: string; file: string; stateDir: string } {
  const root = tempFolder('allow-catch-all');
  const cwd = join(root, 'project');
  mkdirSync(join(cwd, '.git'), { recursive: true });
  const file = join(cwd, '.loopwatch.json');
  writeFileSync(file, JSON.stringify({ allow }));
  return { cwd, file, stateDir: join(root, 'state') };
}

/** Accepts `file` as it holds now, as `loopwatch hook trust` does. */
const accepted = (file: string): void => accept(acceptedPath(file), readFileSync(file, 'utf8'));

const one = (r: object) => catchAllRule(resolveAllow([r])[0] as never);

describe('catch-all rules', () => {
  it('should call a rule a catch-all when it covers a shell tool whole or matches half the unrelated commands', () => {
    for (const r of [{ command: '.' }, { command: '$' }, { command: '^' }, { command: 'x*' }, { command: '\\w' }, { command: '[a-z]' }, { command: '^[a-z]' }, { tool: 'Bash', command: '.' }, { tool: 'run_shell_command', command: '[\\s\\S]' }]) {
      expect(one(r), JSON.stringify(r)).toMatch(/^its command matches \d+ of 64 unrelated commands such as "x"$/);
    }
    // `s` matches fewer than half of the 64 probes now, but more than a quarter: refused with a project's rules judged together
    expect(one({ command: 's' })).toBeNull();
    expect(refusedRules(resolveAllow([{ command: 's' }]))).toEqual([{ index: 0, why: 'it matches 30 of 64 unrelated commands' }]);
    for (const tool of ['Bash', 'run_shell_command', 'exec_command', 'shell', 'PowerShell']) expect(one({ tool })).toBe(`it allows every command of ${tool}`);
  });

  it('should not call a rule for the calls meant to repeat a catch-all', () => {
    for (const r of [{ command: '^npx tsc --noEmit$' }, { command: '^npm (run )?test\\b' }, { command: 'pytest|cargo test|npm test' }, { tool: 'Bash', command: '^git (status|diff)( |$)' }, { command: '^$' }, { tool: 'job_status' }, { tool: 'job_status', command: '.' }, { tool: 'write_stdin' }]) {
      expect(one(r), JSON.stringify(r)).toBeNull();
    }
    expect(PROBE_COMMANDS).toHaveLength(64);
  });

  it("should leave the user's own allow option as written, catch-alls included", () => {
    expect(resolveAllow([{ command: '.' }, { tool: 'Bash' }])).toHaveLength(2);
  });
});

describe("a project's .loopwatch.json", () => {
  it('should drop a catch-all rule, keep the others, and say so once per version of the file', () => {
    const { cwd, file, stateDir } = project([{ command: '.' }, { command: '^npm test$' }, { tool: 'Bash' }]);
    accepted(file);
    const got = projectAllowlist(cwd, stateDir);
    expect(got.rules).toEqual([{ command: '^npm test$' }]);
    expect(got.notice).toBe(
      `loopwatch: ${file} is in use: 1 rule lets calls repeat without a warning; refused as too broad: allow[0] {"command":"."} (its command matches 64 of 64 unrelated commands such as "x"); allow[2] {"tool":"Bash"} (it allows every command of Bash) (to allow these anyway, copy them to the "allow" of your own --config file)`,
    );
    expect(projectAllowlist(cwd, stateDir)).toEqual({ rules: [{ command: '^npm test$' }], path: file });
    writeFileSync(file, JSON.stringify({ allow: [{ command: '.' }] }));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const only = projectAllowlist(cwd, stateDir);
    expect(only.rules).toEqual([]);
    expect(only.notice).toBe(`loopwatch: ${file} is not used (refused as too broad: allow[0] {"command":"."} (its command matches 64 of 64 unrelated commands such as "x") (to allow these anyway, copy them to the "allow" of your own --config file)); calls are checked without its allowlist`);
  });

  it('should tell the user once per version that a file is in use, with its path and how many rules', () => {
    const { cwd, file, stateDir } = project([{ command: '^npm test$' }, { tool: 'job_status' }]);
    accepted(file);
    expect(projectAllowlist(cwd, stateDir).notice).toBe(`loopwatch: ${file} is in use: 2 rules let calls repeat without a warning`);
    expect(projectAllowlist(cwd, stateDir).notice).toBeUndefined();
    writeFileSync(file, JSON.stringify({ allow: [{ command: '^npm test$' }] }));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    accepted(file);
    expect(projectAllowlist(cwd, stateDir).notice).toBe(`loopwatch: ${file} is in use: 1 rule lets calls repeat without a warning`);
    const empty = project([]);
    expect(projectAllowlist(empty.cwd, empty.stateDir)).toEqual({ rules: [], path: empty.file });
  });

  it('should keep warning through a hook whose project holds only catch-alls, and tell the user once', async () => {
    const { cwd, file, stateDir } = project([{ command: '.' }, { tool: 'Bash' }]);
    const call = { tool: 'Bash', args: { command: 'python setup.py build_ext --inplace' }, error: 'error: command "gcc" failed with exit status 1' };
    const actions: string[] = [];
    const told: string[] = [];
    for (let i = 0; i < 5; i++) {
      const run = i === 0 ? hook : hookInProcess; // the first through a real hook process: the wiring
      const before = await run(['--agent', 'claude-code', '--state-dir', stateDir], { ...beforePayload('claude-code', 'catch-all', call, `toolu_ca_${i}`), cwd });
      expect(before.code).toBe(0);
      actions.push(proposeAction('claude-code', before.stdout));
      if (before.stderr !== '') told.push(before.stderr);
      if (i === 0) expect((JSON.parse(before.stdout) as { systemMessage?: string }).systemMessage).toContain(`${file} is not used (refused as too broad: allow[0]`);
      if (actions[i] === 'deny' || actions[i] === 'stop') continue;
      const after = await hookInProcess(['--agent', 'claude-code', '--state-dir', stateDir], { ...afterPayload('claude-code', 'catch-all', call, `toolu_ca_${i}`, i), cwd });
      if (after.stderr !== '') told.push(after.stderr);
    }
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/^loopwatch hook: loopwatch: .*\.loopwatch\.json is not used \(refused as too broad: allow\[0\] \{"command":"\."\} .*allow\[1\] \{"tool":"Bash"\} \(it allows every command of Bash\) \(to allow these anyway, copy them to the "allow" of your own --config file\)\); calls are checked without its allowlist\n$/);
    expect(actions.slice(1)).toEqual(['allow', 'warn', 'deny', 'stop']); // as without the file (the first reply holds the notice)
  }, 60_000);
});
