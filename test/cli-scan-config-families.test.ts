/**
 * `scan --config` with a `families` section (`calibrate --per-family`): each session is checked with its
 * agent's family's options, the agent taken from its label (`agent`) or, unlabelled, from the format its
 * transcript was found in (Claude Code, Codex...); a session of no known agent gets the pooled options. The
 * config here gives one family an exact-repeat threshold of 2 and the other 6, so the same eight identical
 * failing calls are first flagged as exact repeats at different calls per agent.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, verdictLines, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { writeClaudeCode, writeCodex } from './helpers/format-fixtures.js';

/** A config whose families differ in the exact repeat threshold only (the pooled options are the defaults: 3). */
function familiesConfig(dir: string, fast: string, slow: string): string {
  const file = join(dir, 'families.json');
  writeFileSync(file, JSON.stringify({ families: { [fast]: { detectors: { exactRepeat: { threshold: 2 } } }, [slow]: { detectors: { exactRepeat: { threshold: 6 } } } } }));
  return file;
}

/** The index of each session's first exact-repeat verdict in `--jsonl` output, by session (or by file). */
function firstRepeat(stdout: string, by: 'session' | 'file' = 'session'): Record<string, number> {
  const out: Record<string, number> = {};
  for (const l of verdictLines(stdout)) {
    const key = String(l[by]);
    if (l.kind === 'exact_repeat' && out[key] === undefined) out[key] = l.index as number;
  }
  return out;
}

describe('scan applies a config\'s families per agent', () => {
  const dir = tempDir();
  const runs = join(dir, 'runs');
  mkdirSync(runs);
  const same = (session: string) => Array.from({ length: 8 }, (_, step) => ({ session, step, tool: 'bash', args: { command: 'make test' }, result: 'FAILED' }));
  writeJsonl(dir, 'runs/events.jsonl', [...same('a-1'), ...same('b-1'), ...same('c-1')]);
  writeJsonl(dir, 'runs/sessions.jsonl', [
    { session: 'a-1', exit_status: 'step_limit', agent: 'alpha-agent 1.0' },
    { session: 'b-1', exit_status: 'step_limit', agent: 'beta-agent' },
  ]);
  const config = familiesConfig(dir, 'alpha-agent 1.0', 'beta-agent');

  it('should flag a labelled session with its family\'s options and an unlabelled one with the pooled options (jsonl, both checkers)', async () => {
    for (const workers of ['0', '2']) {
      const run = await loopwatchInProcess(['scan', runs, '--config', config, '--jsonl', '--workers', workers]);
      expect(run.code, run.stderr).toBe(1);
      // threshold 2: the 2nd call; 6: the 6th; c-1 has no label: the pooled 3, the 3rd
      expect(firstRepeat(run.stdout)).toEqual({ 'a-1': 1, 'b-1': 5, 'c-1': 2 });
    }
    const pooled = await loopwatchInProcess(['scan', runs, '--jsonl', '--workers', '0']);
    expect(firstRepeat(pooled.stdout)).toEqual({ 'a-1': 2, 'b-1': 2, 'c-1': 2 });
  });

  it('should say so in the text summary: the family with threshold 2 is flagged a call earlier', async () => {
    const row = (stdout: string, session: string) => stdout.split('\n').find((l) => l.startsWith(`  ${session} `)) ?? '';
    const run = await loopwatchInProcess(['scan', runs, '--config', config, '--workers', '0']);
    expect(row(run.stdout, 'a-1')).toContain('flagged at call #2');
    expect(row(run.stdout, 'c-1')).toContain('flagged at call #3');
    const pooled = await loopwatchInProcess(['scan', runs, '--workers', '0']);
    expect(row(pooled.stdout, 'a-1')).toContain('flagged at call #3');
  });

  it('should take an unlabelled transcript\'s agent from its format (Claude Code, Codex)', async () => {
    const d = tempDir();
    const [ccStuck] = writeClaudeCode(d);
    const [codexStuck] = writeCodex(d);
    const cfg = familiesConfig(tempDir(), 'claude-code', 'codex');
    const run = await loopwatchInProcess(['scan', d, '--config', cfg, '--jsonl', '--workers', '0']);
    const first = firstRepeat(run.stdout, 'file');
    expect(first[ccStuck]).toBe(1);
    expect(first[codexStuck]).toBe(5);
  });
});
