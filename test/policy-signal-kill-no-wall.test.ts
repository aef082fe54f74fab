/**
 * Codex's sandbox answers a command whose process died of a signal with its own words alone ("sandbox error:
 * command was killed by a signal", "execution error: Sandbox(Signal(9))"): the program said nothing. An agent
 * whose `pytest` is killed whatever its args narrows it down (the suite, one file, `--collect-only`,
 * `--version`) until `python3 -m pytest` runs: different commands, no error of their own repeated. A dead end
 * joined them by the harness's words, warned, and broke the session one-phase. The same command killed again
 * at once, again and again, is still warned. Both engines, one-phase and two-phase.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { failedSilently } from '../src/text/failure-kinds.js';
import { saysOnlyKilled } from '../src/text/signal-kill.js';
import { ENGINES, deadEndsAt, flaggedActions, liveActions } from './helpers/verdicts.js';

const KILLED = 'sandbox error: command was killed by a signal';
const KILLED_9 = 'execution error: Sandbox(Signal(9))';
const WORKDIR = '/Users/lee/src/pricing-service';

const shell = (script: string, answer: { result?: string; error?: string }): ToolEvent => ({
  tool: 'shell',
  args: { command: ['bash', '-lc', script], workdir: WORKDIR },
  ...answer,
});
const killed = (script: string, text = KILLED): ToolEvent => shell(script, { error: text, result: text });

/** `pytest` killed in every form tried, the agent reading its setup between, until `python3 -m pytest` runs. */
const narrowedDown: ToolEvent[] = [
  shell("sed -n '1,80p' docs/testing.md", { result: '# Testing\n\nRun `pytest tests/unit` before each commit.' }),
  killed('pytest tests/unit'),
  killed('pytest tests/unit --maxfail=1 -q'),
  shell('rg --files tests/unit', { result: 'tests/unit/test_quotes.py\ntests/unit/test_rates.py' }),
  killed('pytest tests/unit/test_quotes.py -q'),
  shell('cat pytest.ini', { result: '[pytest]\ntestpaths = tests\ntimeout = 120' }),
  killed('pytest --collect-only tests/unit/test_quotes.py'),
  shell('python3 -c "import pytest; print(pytest.__version__)"', { result: '7.4.4' }),
  killed('pytest --version'),
  shell('which pytest', { result: '/opt/homebrew/bin/pytest' }),
  shell('python3 -m pytest tests/unit -q', { result: '41 passed in 3.02s' }),
];

/** Old workers stopped with `pkill -f`, each form killing its own shell too (Codex 0.6x's words), then a look at the processes. */
const stoppedWorkers: ToolEvent[] = [
  shell('make -C workers all', { result: '[100%] Built target quote-worker' }),
  killed('pkill -9 -f "quotes.cfg" && pkill -9 -f "rates.cfg"', KILLED_9),
  killed('pkill -9 -f "quotes.cfg" || true; pkill -9 -f "rates.cfg" || true', KILLED_9),
  killed('pkill -9 -f quote-worker || true', KILLED_9),
  shell('ps -ef | grep -c quote-worker', { result: '1' }),
];

/** The same command killed, sent again at once, again and again. */
const sameAgain: ToolEvent[] = [
  shell("sed -n '1,80p' docs/testing.md", { result: '# Testing' }),
  killed('pytest tests/unit'),
  killed('pytest tests/unit'),
  killed('pytest tests/unit'),
  killed('pytest tests/unit'),
];

describe('the texts', () => {
  it("should read Codex's word that a process was killed by a signal as the program saying nothing", () => {
    for (const t of [KILLED, KILLED_9, `failed in sandbox: ${KILLED}`, `error: ${KILLED}\n`, 'execution error: Sandbox(Signal(15))']) {
      expect(saysOnlyKilled(t)).toBe(true);
      expect(failedSilently(t, t)).toBe(true);
    }
    expect(failedSilently(KILLED, undefined)).toBe(true);
  });

  it('should not read a kill beside words of the program, or the words quoted in output, as silent', () => {
    const crash = 'Fatal Python error: Segmentation fault\n\nCurrent thread 0x00000001 (most recent call first):';
    expect(failedSilently(KILLED, crash)).toBe(false);
    expect(saysOnlyKilled(`${crash}\n${KILLED}`)).toBe(false);
    expect(saysOnlyKilled(`grep: "${KILLED}" appears in 3 logs`)).toBe(false);
    expect(saysOnlyKilled('execution error: Io(Os { code: 2, kind: NotFound, message: "No such file or directory" })')).toBe(false);
    expect(saysOnlyKilled(`${KILLED}${' '.repeat(200)}`)).toBe(false);
  });
});

describe.each(ENGINES)('commands killed by a signal (%s engine)', (engine) => {
  it('should not warn about pytest killed in each form tried while the agent narrows it down, one-phase or two-phase', () => {
    expect(flaggedActions(narrowedDown, engine)).toEqual([]);
    expect(liveActions(narrowedDown, engine)).toEqual([]);
  });

  it('should not warn about different pkill commands each killed with their shell, one-phase or two-phase', () => {
    expect(flaggedActions(stoppedWorkers, engine)).toEqual([]);
    expect(liveActions(stoppedWorkers, engine)).toEqual([]);
  });

  it('should still warn about the same command killed again and again', () => {
    expect(flaggedActions(sameAgain, engine).length).toBeGreaterThan(0);
    expect(liveActions(sameAgain, engine).length).toBeGreaterThan(0);
  });

  it('should still see a dead end when the same command is killed, sent again at once, among others killed', () => {
    const retried = [...narrowedDown.slice(0, 3), killed('pytest tests/unit --maxfail=1 -q'), ...narrowedDown.slice(3)];
    expect(deadEndsAt(retried, engine).length).toBeGreaterThan(0);
  });
});
