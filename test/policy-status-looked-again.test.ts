/**
 * A look at the state taken twice with nothing between, once, is no loop when the other gaps between its runs
 * each hold new work (quiet25; holdout3 019a6bf8, Codex: `git status -sb` after each phase's patches, #105,
 * #121, #146, then again at #149 after only two `update_plan` calls, warned a semantic loop at #149; holdout3
 * 0753d66c, 33b1ad46, b55516be, Claude Code: n8n's executions listed twice at once, then again after each
 * workflow update and test, warned at #35). A check that passed or a report of the state may have one gap
 * holding nothing but acknowledgements (plan updates) or nothing at all (evidence-screen.ts's LOOK_AGAIN)
 * while some other gap changed the state. A look repeated at once again and again, one with a read but no
 * change between, and a status polled dozens of times with nothing else, are still loops.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { LOOK_AGAIN } from '../src/policy/evidence-screen.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const UNTRACKED = '## main...origin/main\n?? .codex/\n?? Source/Harness/\n?? docs/\n?? specs/\n';
const status: ToolEvent = { tool: 'shell', args: { command: ['bash', '-lc', 'git status -sb'] }, result: UNTRACKED };
const plan = (step: string): ToolEvent => ({ tool: 'update_plan', args: { plan: [{ status: 'in_progress', step }] }, result: 'Plan updated' });
const add = (file: string): ToolEvent => ({
  tool: 'apply_patch',
  args: { input: `*** Begin Patch\n*** Add File: ${file}\n+#pragma once\n+struct ${file.replace(/\W/g, '_')} {};\n*** End Patch` },
  result: `Success. Updated the following files:\nA ${file}\n`,
});
const phase = (n: number): ToolEvent[] => [1, 2, 3, 4].map((k) => add(`Source/Harness/App/Phase${n}Part${k}.h`));

/** 019a6bf8's shape: status after each phase's new files, then once more after only a plan update. */
const phases: ToolEvent[] = [...phase(1), status, ...phase(2), status, ...phase(3), status, plan('Build the harness'), plan('Run the checks'), status];

/** The look at once again and again: after one phase, status then plan updates only, over and over. */
const lookingAgain: ToolEvent[] = [...phase(1), status, ...Array.from({ length: 6 }, (_, k) => [plan(`Step ${k}`), status]).flat()];

/** Looked at again with a read between and no change: not a gap of acknowledgements alone, weighed as before. */
const read: ToolEvent = { tool: 'shell', args: { command: ['bash', '-lc', "sed -n '1,40p' Source/Harness/App/Phase1Part1.h"] }, result: '#pragma once\nstruct Source_Harness_App_Phase1Part1_h {};\n' };
const afterARead: ToolEvent[] = [...phase(1), status, ...phase(2), status, read, status];

/** A CI run polled with nothing else, dozens of times, the same answer each time. */
const RUN = '[{"databaseId":1942,"displayTitle":"release","status":"completed","conclusion":"failure"}]';
const poll: ToolEvent = { tool: 'shell', args: { command: ['bash', '-lc', 'gh run list --limit 1 --json databaseId,displayTitle,status,conclusion'] }, result: RUN };
const pollLoop: ToolEvent[] = [...phase(1), ...Array.from({ length: 30 }, () => poll)];

describe.each(ENGINES)('a look at the state taken twice at once, once (%s engine)', (engine) => {
  it('allows one such gap', () => {
    expect(LOOK_AGAIN).toBe(1);
  });

  it('should not warn at a status looked at again after only a plan update, its other gaps new work, one-phase', () => {
    expect(flaggedActions(phases, engine)).toEqual([]);
  });

  it('should not warn at it two-phase either', () => {
    expect(liveActions(phases, engine, { labelled: true })).toEqual([]);
  });

  it('should still warn at a status looked at again and again with only plan updates between', () => {
    expect(flaggedActions(lookingAgain, engine).length).toBeGreaterThan(0);
  });

  it('should still warn at a status looked at again with only a read between (no acknowledgement alone)', () => {
    expect(flaggedActions(afterARead, engine).length).toBeGreaterThan(0);
  });

  it('should still warn and break a status polled thirty times with nothing else', () => {
    const actions = flaggedActions(pollLoop, engine);
    expect(actions).toContain('warn');
    expect(actions).toContain('break');
  });
});
