/**
 * mocha's and phpunit's failed tests, read since quiet38 (src/text/test-place.ts), through the built hooks
 * (dist/hook/hook-main.cjs: each session's first call as processes, as the agents run them, the
 * others through the same hook command in this process on the same state files): a suite fixed one
 * failing test after another, each run failing another test with an assertion of the same form, is
 * ordinary work, allowed throughout, with nothing said; before, the masked outputs were one dead end. The
 * same test failing again and again under other flags, its line moved by edits, is still warned. Codex's
 * and Gemini CLI's hooks read the same outputs in their own payloads.
 *
 * Since quiet39, jest's tests outside a describe, phpunit's `--testdox` output and go's test of one name in
 * each package, through Claude Code's hook, in this process (helpers/hook-in-process.ts: the same command and
 * state files) but for one call's two hook processes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentName } from '../src/hooks/hook-agent.js';
import { AGENTS, replayHook } from './helpers/hook-payloads.js';
import { loadHookVerbs } from './helpers/hook-in-process.js';
import { RUNNERS, type ShellCall, runnerSameNameEachFile, runnerSameTestAgain, runnerSuiteOneByOne } from './helpers/runner-output.js';
import { RUNNER_VARIANTS } from './helpers/runner-variants.js';
import { tempFolder } from './helpers/temp-folder.js';

/** The shell tool of each agent. */
const SHELL: Readonly<Record<AgentName, string>> = { 'claude-code': 'Bash', codex: 'Bash', gemini: 'run_shell_command' };

const READ_SINCE_QUIET38 = RUNNERS.filter((r) => r.name === 'mocha' || r.name === 'phpunit');
const CASES = AGENTS.flatMap((agent) => READ_SINCE_QUIET38.map((runner) => ({ agent, runner, name: `${runner.name} through the ${agent} hook` })));

describe.each(CASES)('failing $name', ({ agent, runner }) => {
  // each session's first call (its two hooks) a process, the other seven in this process on the same state
  // files: what is checked is the detector's reading of the outputs, not the process (citime18)
  const every = 8;
  const folder = (what: string) => tempFolder(`hook-runner-${what}-${runner.name}-${agent}`);

  it('should allow a suite fixed one failing test after another, saying nothing', async () => {
    const steps = await replayHook(agent, 'suite', runnerSuiteOneByOne(runner, SHELL[agent]), ['--state-dir', folder('suite')], every);
    expect(steps.map((s) => s.propose)).toEqual(Array.from({ length: 8 }, () => 'allow'));
    for (const s of steps) expect(s.recordReply).not.toMatch(/loopwatch/i);
  }, 120_000);

  it('should still warn about the same test failing again and again', async () => {
    const steps = await replayHook(agent, 'again', runnerSameTestAgain(runner, SHELL[agent]), ['--state-dir', folder('again')], every);
    expect(steps.slice(0, 2).map((s) => s.recordReply)).not.toContainEqual(expect.stringMatching(/loopwatch/i));
    expect(steps.some((s) => s.propose !== 'allow' || /loopwatch/i.test(s.recordReply ?? ''))).toBe(true);
  }, 120_000);
});

const GO = RUNNERS.find((r) => r.name === 'go test');
/** The suites read since quiet39, each fixed one failing test after another (go's: one package after another). */
const SUITES_SINCE_QUIET39: readonly { readonly name: string; readonly calls: () => ShellCall[] }[] = [
  ...RUNNER_VARIANTS.map((runner) => ({ name: runner.name, calls: () => runnerSuiteOneByOne(runner) })),
  ...(GO === undefined ? [] : [{ name: 'go test, one package after another', calls: () => runnerSameNameEachFile(GO) }]),
];

describe('failing runs read since quiet39, through the claude-code hook', () => {
  beforeAll(loadHookVerbs, 180_000);

  it.each(SUITES_SINCE_QUIET39.map((s, k) => ({ ...s, k })))('should allow $name, saying nothing', async ({ name, calls, k }) => {
    // the first suite's first call through hook processes (before and after), the rest in this process
    const steps = await replayHook('claude-code', `suite39-${k}`, calls(), ['--state-dir', tempFolder(`hook-runner-39-${k}`)], k === 0 ? 1_000 : 0);
    expect(steps.map((s) => s.propose), name).toEqual(Array.from({ length: 8 }, () => 'allow'));
    for (const s of steps) expect(s.recordReply).not.toMatch(/loopwatch/i);
  }, 120_000);

  it.each(RUNNER_VARIANTS.map((runner, k) => ({ name: runner.name, runner, k })))('should still warn about $name failing the same test again and again', async ({ runner, k }) => {
    const steps = await replayHook('claude-code', `again39-${k}`, runnerSameTestAgain(runner), ['--state-dir', tempFolder(`hook-runner-39-again-${k}`)], 0);
    expect(steps.slice(0, 2).map((s) => s.recordReply)).not.toContainEqual(expect.stringMatching(/loopwatch/i));
    expect(steps.some((s) => s.propose !== 'allow' || /loopwatch/i.test(s.recordReply ?? ''))).toBe(true);
  }, 120_000);
});
