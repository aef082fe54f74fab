/**
 * `loopwatch eval` on interactive sessions (`exit_status: "interactive"`: a person's Claude Code or Codex
 * session, ordinary work where every break is a false alarm and every warning a cost): warned and broken per
 * family (`claude-code`, `codex`) in both replays with their Wilson intervals, the broken ones among the
 * false alarms, the warned ones listed with their first verdict, and benchmark-only folders as before.
 * The transcripts and rollouts are written here in the agents' own formats.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { tempDir, writeJsonl } from './helpers/cli.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A Claude Code transcript: one Bash or Read call a message, each answered. */
function claudeCode(session: string, calls: readonly { tool: string; input: unknown; result: string; error?: boolean }[]): unknown[] {
  const lines: unknown[] = [];
  calls.forEach((c, i) => {
    const id = `toolu_${session}_${i}`;
    lines.push({ type: 'assistant', sessionId: session, uuid: `a${i}`, isSidechain: false, version: '2.1.97', message: { id: `msg_${i}`, role: 'assistant', content: [{ type: 'text', text: `Step ${i}.` }, { type: 'tool_use', id, name: c.tool, input: c.input }] } });
    lines.push({ type: 'user', sessionId: session, uuid: `u${i}`, isSidechain: false, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: c.result, is_error: c.error === true }] } });
  });
  return lines;
}

/** A Codex rollout: shell calls with their outputs (exit code in the metadata). */
function codex(session: string, calls: readonly { command: string[]; output: string; exit: number }[]): unknown[] {
  const lines: unknown[] = [{ timestamp: '2026-01-05T10:00:00.000Z', type: 'session_meta', payload: { id: session, cwd: '/work/app', cli_version: '0.77.0' } }];
  calls.forEach((c, i) => {
    lines.push({ timestamp: '2026-01-05T10:00:01.000Z', type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: c.command }), call_id: `call_${i}` } });
    lines.push({ timestamp: '2026-01-05T10:00:02.000Z', type: 'response_item', payload: { type: 'function_call_output', call_id: `call_${i}`, output: JSON.stringify({ output: c.output, metadata: { exit_code: c.exit, duration_seconds: 0.1 } }) } });
  });
  return lines;
}

/** Three interactive sessions (one stuck, one warned, one quiet) and, when `bench`, a submitted run; `loop` labels the stuck one a genuine loop. */
function sessions(bench: boolean, loop = false): string {
  const dir = tempDir();
  dirs.push(dir);
  const stuck = Array.from({ length: 10 }, () => ({ tool: 'Bash', input: { command: 'make build' }, result: 'make: *** [all] Error 2', error: true }));
  const quiet = Array.from({ length: 6 }, (_, i) => ({ tool: 'Read', input: { file_path: `/work/app/src/f${i}.ts` }, result: `export const f${i} = ${i};` }));
  writeJsonl(dir, 'cc-stuck.jsonl', claudeCode('cc-stuck', stuck));
  writeJsonl(dir, 'cc-quiet.jsonl', claudeCode('cc-quiet', quiet));
  const warned = [...Array.from({ length: 3 }, () => ({ command: ['npm', 'test'], output: '1 failing', exit: 1 })), ...Array.from({ length: 6 }, (_, i) => ({ command: ['cat', `src/g${i}.ts`], output: `body ${i}`, exit: 0 }))];
  writeJsonl(dir, 'rollout-cx-warned.jsonl', codex('cx-warned', warned));
  const labels: unknown[] = [
    { session: 'cc-stuck', exit_status: 'interactive', agent: 'claude-code 2.1.97', task_group: 'someone/dotfiles/-work-app', ...(loop ? { loop: true, note: 'make build failing 10 times' } : {}) },
    { session: 'cc-quiet', exit_status: 'interactive', agent: 'claude-code 2.0.2' },
    { session: 'cx-warned', exit_status: 'interactive', agent: 'codex 0.77.0' },
  ];
  if (bench) {
    writeJsonl(dir, 'events.jsonl', Array.from({ length: 6 }, (_, i) => ({ session: 'done-1', tool: 'read_file', args: { path: `src/f${i}.py` }, result: `body ${i}` })));
    labels.push({ session: 'done-1', exit_status: 'submitted', agent: 'mini-swe-agent 1.15.0' });
  }
  writeJsonl(dir, 'sessions.jsonl', labels);
  return dir;
}

interface Share {
  count: number;
  of: number;
  rate: number | null;
  low: number | null;
  high: number | null;
}
interface Row {
  group: string;
  interactiveWarned: Share;
  interactiveBroken: Share;
  interactiveLoopWarned: Share;
  interactiveLoopBroken: Share;
  submittedWarned: Share;
}
interface Doc {
  onePhase: { rows: Row[]; overall: Row };
  twoPhase: { rows: Row[]; overall: Row };
  falseAlarms: { session: string }[];
  warnings: { session: string }[];
  loops: { session: string }[];
}

describe('loopwatch eval on interactive sessions', () => {
  it('should count interactive sessions warned and broken per family, one-phase and two-phase, with their intervals', async () => {
    const run = await loopwatchInProcess(['eval', sessions(false), '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as Doc;
    for (const t of [doc.onePhase, doc.twoPhase]) {
      const cc = t.rows.find((r) => r.group === 'claude-code') as Row;
      const cx = t.rows.find((r) => r.group === 'codex') as Row;
      expect(cc.interactiveWarned).toMatchObject({ count: 1, of: 2, rate: 0.5 });
      expect(cc.interactiveBroken).toMatchObject({ count: 1, of: 2, rate: 0.5 });
      expect(cx.interactiveWarned).toMatchObject({ count: 1, of: 1 });
      expect(cx.interactiveBroken).toMatchObject({ count: 0, of: 1 });
      // the Wilson interval of 2 of 3 and of 1 of 3
      expect(t.overall.interactiveWarned.low as number).toBeCloseTo(0.2077, 3);
      expect(t.overall.interactiveWarned.high as number).toBeCloseTo(0.9385, 3);
      expect(t.overall.interactiveBroken.low as number).toBeCloseTo(0.0615, 3);
      expect(t.overall.submittedWarned.of).toBe(0);
    }
    expect(doc.falseAlarms.map((r) => r.session)).toEqual(['cc-stuck']);
    expect(doc.warnings.map((r) => r.session)).toEqual(['cx-warned']);
  }, 180_000); // in this process now (vitest's timer runs): the first eval in a fresh worker loads its modules, 59 s at load ~27

  it('should show interactive columns and list each flagged session with its first verdict and call', async () => {
    const dir = sessions(false);
    const run = await loopwatchInProcess(['eval', dir]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/runs interactive warned\s+broken\s+1st brk\n/);
    expect(run.stdout).toMatch(/claude-code\s+2\s+2 50\.0% \[9\.5-90\.5\]\s+50\.0% \[9\.5-90\.5\]/);
    expect(run.stdout).toMatch(/codex\s+1\s+1 100\.0% \[20\.7-100\.0\] 0\.0% \[0\.0-79\.3\]/);
    expect(run.stdout).not.toContain('step_limit');
    expect(run.stdout).toMatch(/False alarms \(submitted runs and interactive sessions broken\): 1 \(one-phase 1, two-phase 1\)\n.*\n\s+claude-code\s+cc-stuck\s+10\s+\w+ at call #\d+, break at call #\d+/);
    expect(run.stdout).toMatch(/Warnings on interactive sessions \(warned, not broken\): 1 \(one-phase 1, two-phase 1\)\n.*\n\s+codex\s+cx-warned\s+9\s+\w+ at call #\d+\s+\w+ at call #\d+\n/);
    expect((await loopwatchInProcess(['eval', dir, '--list', 'warnings'])).stdout).toBe(`cx-warned\tcodex\t9\t${join(dir, 'rollout-cx-warned.jsonl')}\n`);
    expect((await loopwatchInProcess(['eval', dir, '--list', 'false-alarms'])).stdout).toBe(`cc-stuck\tclaude-code\t10\t${join(dir, 'cc-stuck.jsonl')}\n`);
  });

  it('should show both groups of columns when benchmark runs and interactive sessions are mixed, and neither list nor column of interactive sessions without one', async () => {
    const mixed = await loopwatchInProcess(['eval', sessions(true)]);
    expect(mixed.code).toBe(0);
    expect(mixed.stdout).toMatch(/runs step_limit warned\s+broken\s+submitted warned\s+broken\s+interactive warned\s+broken\s+1st brk saved\/limit calls\n/);
    expect(mixed.stdout).toContain('Misses (step_limit runs never warned): 0');
    const dir = tempDir();
    dirs.push(dir);
    writeJsonl(dir, 'events.jsonl', Array.from({ length: 6 }, (_, i) => ({ session: 'done-1', tool: 'read_file', args: { path: `src/f${i}.py` }, result: `body ${i}` })));
    writeJsonl(dir, 'sessions.jsonl', [{ session: 'done-1', exit_status: 'submitted', agent: 'mini-swe-agent 1.15.0' }]);
    const bench = await loopwatchInProcess(['eval', dir]);
    expect(bench.stdout).not.toContain('interactive');
    expect(bench.stdout).toContain('False alarms (submitted runs broken): 0');
  });

  it('should judge a session labelled as a genuine loop apart: flagging it is no false alarm, and it is listed with its verdicts', async () => {
    const dir = sessions(false, true);
    const doc = JSON.parse((await loopwatchInProcess(['eval', dir, '--json'])).stdout) as Doc;
    for (const t of [doc.onePhase, doc.twoPhase]) {
      const cc = t.rows.find((r) => r.group === 'claude-code') as Row;
      expect(cc.interactiveBroken).toMatchObject({ count: 0, of: 1 });
      expect(cc.interactiveLoopWarned).toMatchObject({ count: 1, of: 1 });
      expect(cc.interactiveLoopBroken).toMatchObject({ count: 1, of: 1 });
    }
    expect(doc.falseAlarms).toEqual([]);
    expect(doc.loops.map((r) => r.session)).toEqual(['cc-stuck']);
    const text = (await loopwatchInProcess(['eval', dir])).stdout;
    expect(text).toContain('False alarms (submitted runs and interactive sessions broken): 0');
    expect(text).toMatch(/Genuine loops \(interactive sessions labelled loop: true; should be flagged; warned 1 \/ 1 of 1, broken 1 \/ 1 of 1\): 1 \(one-phase 1, two-phase 1\)\n.*\n\s+claude-code\s+cc-stuck\s+10\s+\w+ at call #\d+, break at call #\d+/);
  });
});
