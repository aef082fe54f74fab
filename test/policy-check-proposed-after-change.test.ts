/**
 * A check proposed right after new work tests that work: its outcome is the evidence, not known yet (quiet11;
 * holdout3 019c8d23, Codex: `npm run lint` failing on a React ref, an edit elsewhere in App.tsx, the same
 * failure, then the fix, and the third `npm run lint` warned two-phase at its proposal, a frequency of three
 * in twenty, though the lint it proposed passed). At a proposal, a signal of the same call repeated
 * (frequency, state repeat) with fewer runs than its detector's threshold, for a check (its latest run passed
 * or failed, it changes nothing itself) with a successful change not made before after that run, is weighed on
 * the runs that ran alone (src/policy/evidence-screen.ts checksNewChange), as a similar call proposed is; the
 * call is screened again once recorded. The stuck twin, the same edit and the same failing lint again and
 * again, is still warned and broken.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const FILE = 'src/sidepanel/App.tsx';
const REF_ERROR = `> app@0.1.0 lint\n> eslint .\n\n${FILE}\n  386:15  error  Error: Cannot access refs during render  react-hooks/refs\n\n✖ 1 problem (1 error, 0 warnings)\n`;
const PASSED = `> app@0.1.0 lint\n> eslint .\n\n${FILE}\n  805:6  warning  React Hook useEffect has a missing dependency  react-hooks/exhaustive-deps\n\n✖ 1 problem (0 errors, 1 warning)\n`;
const lint = (failed: boolean): ToolEvent => ({ tool: 'exec_command', args: { cmd: 'npm run lint' }, result: failed ? `Process exited with code 1\nOutput:\n${REF_ERROR}` : PASSED, ...(failed ? { error: REF_ERROR } : {}) });
const patch = (from: string, to: string): ToolEvent => ({ tool: 'apply_patch', args: { input: `*** Begin Patch\n*** Update File: ${FILE}\n@@\n-${from}\n+${to}\n*** End Patch` }, result: `Success. Updated the following files:\nM ${FILE}\n` });
const read = (from: number): ToolEvent => ({ tool: 'exec_command', args: { cmd: `nl -ba ${FILE} | sed -n '${from},${from + 40}p'` }, result: `${from} return (\n${from + 1} <div className="app">\n` });

const session: ToolEvent[] = [
  read(1),
  patch('<header className="header">', '<header className="header compact">'),
  lint(true),
  read(1138),
  patch('<div className="header-main">', '<div className="header-main row">'),
  lint(true),
  read(320),
  patch('<div ref={props.containerRef} className="messages">', '<div ref={containerRef} className="messages">'),
  lint(false),
];

/** A report of the state (`git status --short`) looked at twice, then again after new files (devset 019c1e66, Codex). */
const status = (lines: string): ToolEvent => ({ tool: 'exec_command', args: { cmd: 'git status --short' }, result: lines });
const add = (file: string): ToolEvent => ({ tool: 'apply_patch', args: { input: `*** Begin Patch\n*** Add File: ${file}\n+#!/usr/bin/env bash\n*** End Patch` }, result: `Success. Updated the following files:\nA ${file}\n` });
const statusAfterWork: ToolEvent[] = [
  status(' M package.json\n'),
  read(1),
  status(' M package.json\n'),
  add('scripts/configure-gitflow.sh'),
  add('docs/git-flow.md'),
  status(' M package.json\n?? docs/git-flow.md\n?? scripts/configure-gitflow.sh\n'),
];

/** The same patch and the same failing lint again and again. */
const stuck: ToolEvent[] = [read(1), ...Array.from({ length: 6 }, () => [patch('<div ref={props.containerRef}>', '<div ref={ref}>'), lint(true)]).flat()];

describe.each(ENGINES)('a check proposed after new work (%s engine)', (engine) => {
  it('should not warn at the proposal of the check after a new change, two-phase', () => {
    expect(liveActions(session, engine, { labelled: true })).toEqual([]);
  });

  it('should not warn at the proposal of a status look after a new change, two-phase', () => {
    expect(liveActions(statusAfterWork, engine, { labelled: true })).toEqual([]);
  });

  it('should say nothing one-phase either (the check passed after the fix)', () => {
    expect(flaggedActions(session, engine)).toEqual([]);
  });

  it('should still warn and break the same patch and failing lint again and again', () => {
    const live = liveActions(stuck, engine, { labelled: true });
    expect(live.some((a) => a.endsWith('warn'))).toBe(true);
    expect(live.some((a) => a.endsWith('deny') || a.endsWith('stop') || a.endsWith('break'))).toBe(true);
    expect(flaggedActions(stuck, engine)).toContain('break');
  });
});
