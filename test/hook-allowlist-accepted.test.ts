/**
 * A cloned repository's `.loopwatch.json` is used only once the user accepted that version of it (`loopwatch
 * hook trust`, src/hooks/accepted-allowlists.ts). The checks of covering-rules.ts judge rules against 64
 * public probes: 18 rules such as `^npm\b`, `^pytest\b`, `^git\b` miss them all, and a tool-only rule allows
 * an MCP tool whole; on integ (0c3c8a2) such a file was used at once, and a failing `npm test` repeated
 * through the hook was never warned, denied or stopped.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accept, acceptedFolder, isAccepted } from '../src/hooks/accepted-allowlists.js';
import { acceptedPath, projectAllowlist } from '../src/hooks/project-allowlist.js';
import { resolveAllow } from '../src/options/allow-rules.js';
import { refusedRules } from '../src/options/covering-rules.js';
import { afterPayload, beforePayload, hook, proposeAction } from './helpers/hook-payloads.js';
import { hookInProcess } from './helpers/hook-in-process.js';
import { tempFolder } from './helpers/temp-folder.js';
import { trustInTerminal } from './helpers/trust-terminal.js';

/** The commands agents run most, one `^word\b` rule each: no probe of covering-rules.ts starts with any as a word... */
const WORDS = ['npm', 'npx', 'node', 'pytest', 'python', 'python3', 'git', 'cargo', 'go', 'make', 'yarn', 'pnpm', 'ls', 'cat', 'grep', 'rg', 'uv', 'tox'];
const HOSTILE = WORDS.map((w) => ({ tool: 'Bash', command: `^${w}\\b` }));

/** A git project whose `.loopwatch.json` holds `allow`; returns its folder, its file and a state folder. */
function project(allow: unknown): { cwd: string; file: string; stateDir: string } {
  const root = tempFolder('allow-accepted');
  const cwd = join(root, 'project');
  mkdirSync(join(cwd, '.git'), { recursive: true });
  const file = join(cwd, '.loopwatch.json');
  writeFileSync(file, JSON.stringify({ allow }));
  return { cwd, file, stateDir: join(root, 'state') };
}

/** The actions of `npm test` failing `times` times through the hook, as Claude Code runs it in `cwd`. */
async function npmTests(cwd: string, stateDir: string, session: string, times: number): Promise<{ actions: string[]; told: string[] }> {
  const call = { tool: 'Bash', args: { command: 'npm test' }, error: 'npm ERR! Test failed.  See above for more details.' };
  const actions: string[] = [];
  const told: string[] = [];
  for (let i = 0; i < times; i++) {
    const run = i === 0 ? hook : hookInProcess; // the first through a real hook process: the wiring
    const before = await run(['--agent', 'claude-code', '--state-dir', stateDir], { ...beforePayload('claude-code', session, call, `toolu_${session}_${i}`), cwd });
    expect(before.code).toBe(0);
    actions.push(proposeAction('claude-code', before.stdout));
    if (before.stderr !== '') told.push(before.stderr);
    if (actions[i] === 'deny' || actions[i] === 'stop') continue;
    const after = await hookInProcess(['--agent', 'claude-code', '--state-dir', stateDir], { ...afterPayload('claude-code', session, call, `toolu_${session}_${i}`, i), cwd });
    if (after.stderr !== '') told.push(after.stderr);
  }
  return { actions, told };
}

describe("a project's .loopwatch.json not yet accepted", () => {
  it('should not use rules written to miss the probes, and keep warning as without the file', async () => {
    expect(refusedRules(resolveAllow(HOSTILE))).toEqual([]); // the probes cannot tell them from a project's own
    const { cwd, file, stateDir } = project(HOSTILE);
    const { actions, told } = await npmTests(cwd, stateDir, 'hostile-words', 5);
    expect(actions.slice(1)).toEqual(['allow', 'warn', 'deny', 'stop']); // the first reply holds the notice
    expect(told).toEqual([
      `loopwatch hook: loopwatch: ${file} is not used until you accept it: its 18 rules would let calls repeat without a warning (allow[0] {"tool":"Bash","command":"^npm\\\\b"}; allow[1] {"tool":"Bash","command":"^npx\\\\b"}; allow[2] {"tool":"Bash","command":"^node\\\\b"} and 15 more); if you trust this project, run: loopwatch hook trust ${file}\n`,
    ]);
  }, 60_000);

  it('should not use a tool-only rule for an MCP tool, and say how to accept it', () => {
    const { cwd, file, stateDir } = project([{ tool: 'mcp__github__create_issue' }]);
    const got = projectAllowlist(cwd, stateDir);
    expect(got.rules).toEqual([]);
    expect(got.notice).toBe(`loopwatch: ${file} is not used until you accept it: its 1 rule would let calls repeat without a warning (allow[0] {"tool":"mcp__github__create_issue"}); if you trust this project, run: loopwatch hook trust ${file}`);
    expect(projectAllowlist(cwd, stateDir)).toEqual({ rules: [], path: file }); // told once per version
  });

  it('should quote a path the shell would split in the command it shows', () => {
    const root = tempFolder('allow-accepted');
    const cwd = join(root, "it's a project");
    mkdirSync(join(cwd, '.git'), { recursive: true });
    writeFileSync(join(cwd, '.loopwatch.json'), JSON.stringify({ allow: [{ command: '^make$' }] }));
    expect(projectAllowlist(cwd, join(root, 'state')).notice).toMatch(/run: loopwatch hook trust '.*\/it'\\''s a project\/\.loopwatch\.json'$/);
  });
});

describe("a project's .loopwatch.json accepted", () => {
  it('should use the accepted version, and ask again once the file changes (a pull bringing new rules)', async () => {
    const { cwd, file, stateDir } = project([{ tool: 'Bash', command: '^npm test$' }]);
    const trusted = await trustInTerminal([file], process.env, cwd);
    expect(trusted.code).toBe(0);
    expect(isAccepted(acceptedPath(file), readFileSync(file, 'utf8'))).toBe(true);
    const used = await npmTests(cwd, stateDir, 'accepted-1', 5);
    expect(used.actions.slice(1)).toEqual(['allow', 'allow', 'allow', 'allow']); // the first reply holds the notice only
    expect(used.told).toEqual([`loopwatch hook: loopwatch: ${file} is in use: 1 rule lets calls repeat without a warning\n`]);
    writeFileSync(file, JSON.stringify({ allow: [{ tool: 'Bash', command: '^npm test$' }, ...HOSTILE] }));
    const changed = await npmTests(cwd, stateDir, 'accepted-2', 5);
    expect(changed.actions.slice(1)).toEqual(['allow', 'warn', 'deny', 'stop']);
    expect(changed.told[0]).toMatch(/is not used until you accept it: its 19 rules would/);
  }, 60_000);

  it('should keep refusing rules too broad in an accepted file', () => {
    const { cwd, file, stateDir } = project([{ command: '.' }, { command: '^npm test$' }]);
    accept(acceptedPath(file), readFileSync(file, 'utf8'));
    expect(projectAllowlist(cwd, stateDir).rules).toEqual([{ command: '^npm test$' }]);
  });

  it('should name the markers by a hash, never by the path or the text', () => {
    const { file } = project([{ command: '^npm test$' }]);
    accept(acceptedPath(file), readFileSync(file, 'utf8'));
    expect(acceptedFolder()).toBe(join(process.env.XDG_STATE_HOME as string, 'loopwatch', 'accepted'));
    expect(isAccepted(acceptedPath(file), `${readFileSync(file, 'utf8')} `)).toBe(false);
    expect(isAccepted(`${acceptedPath(file)}x`, readFileSync(file, 'utf8'))).toBe(false);
  });
});

describe('loopwatch hook trust', () => {
  it('should find the file the hooks would read, list its rules and those still refused', async () => {
    const { cwd, file } = project([{ command: '^npm test$' }, { tool: 'Bash' }]);
    const deep = join(cwd, 'src', 'deep');
    mkdirSync(deep, { recursive: true });
    const r = await trustInTerminal([], process.env, deep);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `loopwatch hook trust: accepted ${file} as it is now (a change to it must be accepted again): 1 rule lets calls repeat without a warning\n` +
        '  allow[0] {"command":"^npm test$"}\n' +
        'still refused as too broad (to allow these, copy them to the "allow" of your own --config file):\n' +
        '  allow[1] {"tool":"Bash"} (it allows every command of Bash)\n',
    );
  });

  it('should accept nothing when there is no file or it cannot be used', async () => {
    const root = tempFolder('allow-accepted');
    mkdirSync(join(root, 'p', '.git'), { recursive: true });
    const none = await trustInTerminal([], process.env, join(root, 'p'));
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^loopwatch hook trust: no \.loopwatch\.json from .* up to its git root\n$/);
    writeFileSync(join(root, 'p', '.loopwatch.json'), '{"allow": [{"command": "(a+)+"}]}');
    const bad = await trustInTerminal([], process.env, join(root, 'p'));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/cannot be used \(options\.allow\[0\]\.command must match in linear time/);
    expect(isAccepted(acceptedPath(join(root, 'p', '.loopwatch.json')), '{"allow": [{"command": "(a+)+"}]}')).toBe(false);
    const two = await trustInTerminal(['a', 'b'], process.env, root);
    expect(two.code).toBe(2);
  });
});
