/**
 * A suite fixed file by file, through the built hooks (dist/hook/hook-main.cjs: each session's first call
 * as processes, as the agents run them, the others through the same hook command in this process on the
 * same state files): each `pytest tests/test_<module>.py` failing its own test with an
 * AssertionError of the same form (~1.5 KB of pytest output) is ordinary work, allowed throughout; before,
 * the hook warned at the third file and denied the fifth (src/text/test-place.ts). Every file failing to
 * import one module is still stopped. Codex's and Gemini CLI's hooks read the same outputs in their own
 * payloads (Codex's `Exit code: 1 ... Output:` text, Gemini CLI's error object).
 */
import { describe, expect, it } from 'vitest';
import type { AgentName } from '../src/hooks/hook-agent.js';
import { AGENTS, replayHook } from './helpers/hook-payloads.js';
import { collectionErrorEveryFile, suiteFileByFile } from './helpers/pytest-output.js';
import { tempFolder } from './helpers/temp-folder.js';

/** The shell tool of each agent. */
const SHELL: Readonly<Record<AgentName, string>> = { 'claude-code': 'Bash', codex: 'Bash', gemini: 'run_shell_command' };

describe.each(AGENTS)('a suite fixed file by file, through the %s hook', (agent) => {
  // each session's first call (its two hooks) a process, the other seven in this process on the same state
  // files: what is checked is the detector's reading of the outputs, not the process (citime18)
  const every = 8;

  it('should allow every run, none warned', async () => {
    const steps = await replayHook(agent, 'suite', suiteFileByFile(SHELL[agent]), ['--state-dir', tempFolder(`hook-suite-${agent}`)], every);
    expect(steps.map((s) => s.propose)).toEqual(Array.from({ length: 8 }, () => 'allow'));
    for (const s of steps) expect(s.recordReply).not.toMatch(/loopwatch/i);
  }, 120_000);

  it('should still deny a run after every file failed to import the same module', async () => {
    const steps = await replayHook(agent, 'collect', collectionErrorEveryFile(SHELL[agent]), ['--state-dir', tempFolder(`hook-collect-${agent}`)], every);
    expect(steps.map((s) => s.propose).some((a) => a === 'deny' || a === 'stop')).toBe(true);
  }, 120_000);
});
