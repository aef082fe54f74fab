/**
 * hostile28: `hook --log FILE` appended without bound (a looping agent's hooks write a line per call,
 * forever). A line that would take the log past its bound now moves it to FILE.1 (the name replaced, never
 * a link's target) and begins a new one, 0600, said on stderr; when FILE.1 cannot be replaced, no more
 * lines are written and that is said. The bound is lowered here through the function's parameter.
 * hostile30: the bound was a constant; `LOOPWATCH_DECISION_LOG_MAX_BYTES` sets it (at least 1 MiB).
 * hostile33: a log's lines begin with their time (decision-log.ts LOG_LINE_START), as the hook's own do: a file begun otherwise is not appended to.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DECISION_LOG_MAX_ENV, MAX_DECISION_LOG_BYTES, MIN_DECISION_LOG_BYTES, appendDecisionLine, decisionLogCap } from '../src/hooks/decision-log.js';
import { tempDir } from './helpers/cli.js';

const line = (i: number): string => `${JSON.stringify({ time: '2026-12-07T00:00:00.000Z', hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', n: i })}\n`;

describe('the decision log bounded', () => {
  it('should move a full log to FILE.1 and begin a new one, each under the bound', () => {
    const log = join(tempDir(), 'decisions.jsonl');
    const said: (string | null)[] = [];
    for (let i = 0; i < 40; i++) said.push(appendDecisionLine(log, line(i), 1000));
    expect(statSync(log).size).toBeLessThanOrEqual(1000);
    expect(statSync(`${log}.1`).size).toBeLessThanOrEqual(1000);
    expect(statSync(log).mode & 0o777).toBe(0o600);
    const kept = (readFileSync(`${log}.1`, 'utf8') + readFileSync(log, 'utf8')).trim().split('\n').map((l) => JSON.parse(l).n as number);
    expect(kept.at(-1)).toBe(39);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 40 - kept.length + i));
    expect(said.filter((s) => s !== null).length).toBeGreaterThanOrEqual(2);
    expect(said.find((s) => s !== null)).toContain(`moved to ${log}.1`);
  });

  it('should replace a link planted as FILE.1, never writing where it points', () => {
    const dir = tempDir();
    const log = join(dir, 'decisions.jsonl');
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'untouched');
    symlinkSync(victim, `${log}.1`);
    for (let i = 0; i < 20; i++) appendDecisionLine(log, line(i), 500);
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(lstatSync(`${log}.1`).isFile()).toBe(true);
  });

  it('should stop writing, and say so, when FILE.1 cannot be replaced', () => {
    const log = join(tempDir(), 'decisions.jsonl');
    mkdirSync(`${log}.1`);
    writeFileSync(join(`${log}.1`, 'x'), 'a folder not empty');
    let last: string | null = null;
    for (let i = 0; i < 20; i++) last = appendDecisionLine(log, line(i), 500);
    expect(statSync(log).size).toBeLessThanOrEqual(500);
    expect(last).toContain('no more lines are written to it');
  });

  it('should keep refusing a log that is a link, and bound by 64 MiB by default', () => {
    const dir = tempDir();
    const victim = join(dir, 'victim');
    writeFileSync(victim, '');
    symlinkSync(victim, join(dir, 'log'));
    expect(appendDecisionLine(join(dir, 'log'), line(0))).toContain('it is a symbolic link');
    expect(readFileSync(victim, 'utf8')).toBe('');
    expect(existsSync(join(dir, 'log.1'))).toBe(false);
    expect(MAX_DECISION_LOG_BYTES).toBe(64 * 1024 * 1024);
  });

  it('should take its bound from LOOPWATCH_DECISION_LOG_MAX_BYTES, never under 1 MiB', () => {
    expect(decisionLogCap({ [DECISION_LOG_MAX_ENV]: '16M' })).toBe(16 * 1024 * 1024);
    expect(decisionLogCap({ [DECISION_LOG_MAX_ENV]: '2 GiB' })).toBe(2 * 1024 ** 3);
    expect(decisionLogCap({ [DECISION_LOG_MAX_ENV]: '3000000' })).toBe(3_000_000);
    expect(decisionLogCap({ [DECISION_LOG_MAX_ENV]: '100' })).toBe(MIN_DECISION_LOG_BYTES);
    expect(decisionLogCap({ [DECISION_LOG_MAX_ENV]: 'lots' })).toBe(MAX_DECISION_LOG_BYTES);
    expect(decisionLogCap({})).toBe(MAX_DECISION_LOG_BYTES);
    const log = join(tempDir(), 'decisions.jsonl');
    const big = (i: number): string => `${JSON.stringify({ time: '2026-12-07T00:00:00.000Z', hook_event_name: 'PreToolUse', session_id: 's', n: i, pad: 'x'.repeat(200_000) })}\n`;
    const before = process.env[DECISION_LOG_MAX_ENV];
    process.env[DECISION_LOG_MAX_ENV] = '1M';
    try {
      for (let i = 0; i < 12; i++) appendDecisionLine(log, big(i));
    } finally {
      if (before === undefined) delete process.env[DECISION_LOG_MAX_ENV];
      else process.env[DECISION_LOG_MAX_ENV] = before;
    }
    expect(statSync(log).size).toBeLessThanOrEqual(MIN_DECISION_LOG_BYTES);
    expect(statSync(`${log}.1`).size).toBeLessThanOrEqual(MIN_DECISION_LOG_BYTES);
    expect(statSync(`${log}.1`).size).toBeGreaterThan(800_000);
  });
});
