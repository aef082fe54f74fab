/**
 * A patch the tool could not parse is refused for its form (invalid-args.ts), and a dead end of such refusals
 * answered by patches that applied is no wall (quiet22, s19: devset d7e0b7f3 and 019a177c, holdout4 019a01f5,
 * Codex's `apply_patch` slipping on its own patch language, "invalid hunk at line 100, Expected update hunk to
 * start with a @@ context marker", between patches of the same file that applied). Refusals coming one after
 * another, nothing applied between, stay a dead end (and a wall: the proposal after them denied, as before
 * the refusals were read as args refused). Patches that parse but do not match the file ("Failed to find
 * expected lines": a content slip) are read as args refused too since quiet23 (edit-mismatch.ts), and answered
 * alike (policy-edit-mismatch-answered.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { refusedArgs } from '../src/text/invalid-args.js';
import { ENGINES, liveActions, verdictsOf } from './helpers/verdicts.js';

const FORM = "apply_patch verification failed: invalid hunk at line 36, Expected update hunk to start with a @@ context marker, got: 'ios/ or android/'";
const CONTENT = 'apply_patch verification failed: Failed to find expected lines in specs/001/plan.md:\n- ios/ or android/';
const PLAN = 'specs/001/plan.md';

const patch = (body: string): ToolEvent['args'] => ({ command: ['apply_patch', `*** Begin Patch\n*** Update File: ${PLAN}\n${body}\n*** End Patch`] });
/** A patch of plan.md refused with `error` (its body `n`, so each is another call). */
const refused = (n: number, error = FORM): ToolEvent => ({ tool: 'shell', args: patch(`-line ${n}\n+new line ${n}`), error });
/** A patch of plan.md that applied. */
const applied = (n: number): ToolEvent => ({ tool: 'shell', args: patch(`@@\n-old ${n}\n+new ${n}`), result: `Success. Updated the following files:\nM ${PLAN}` });
/** A look at plan.md. */
const look = (n: number): ToolEvent => ({ tool: 'shell', args: { command: ['pwsh', '-Command', `Get-Content ${PLAN} | Select-Object -Skip ${n * 40} -First 40`] }, result: `# Implementation Plan ${n}\n...` });

/** One plan edited: a slip, three patches that apply, a slip, a look, a slip (019a177c #27-#34). */
const answered: ToolEvent[] = [look(0), refused(1), look(1), applied(2), applied(3), applied(4), refused(5), look(2), refused(6), applied(7)];

/** Three patches refused, a look between each, none applied: the agent cannot write the patch. */
const unanswered: ToolEvent[] = [applied(0), refused(1), look(1), refused(2), look(2), refused(3), look(3), refused(4)];

/** The same rhythm as `answered`, each refused patch parsed but matching nothing in the file. */
const mismatched: ToolEvent[] = answered.map((e) => (e.error === undefined ? e : { ...e, error: CONTENT }));

const deadEnds = (events: readonly ToolEvent[], engine: (typeof ENGINES)[number]): number => verdictsOf(events, { engine }).filter((v) => v?.kind === 'dead_end').length;

describe.each(ENGINES)('patches refused for their form (%s engine)', (engine) => {
  it('should not be a dead end when patches that applied answer them', () => {
    expect(deadEnds(answered, engine)).toBe(0);
    expect(liveActions(answered, engine)).toEqual([]);
  });

  it('should still be a dead end when nothing applied between them', () => {
    expect(deadEnds(unanswered, engine)).toBeGreaterThan(0);
  });

  it('should deny, proposed, a patch after patches refused one after another, nothing written between', () => {
    // refused args are no wall when new args answer them (live-dead-end-wall-refused-args), but a refused write
    // again and again is: the agent cannot write the patch
    const inARow = [1, 2, 3, 4, 5, 6].map((n) => refused(n));
    expect(liveActions(inARow, engine, { labelled: true })).toEqual(['R2:warn', 'P3:warn', 'P4:deny', 'P5:stop']);
  });

  it('should answer patches that match nothing in the file alike (quiet23)', () => {
    expect(deadEnds(mismatched, engine)).toBe(0);
  });
});

describe('a patch refused for its form', () => {
  it('should be read as args refused, and a patch that does not match the file should not', () => {
    expect(refusedArgs(FORM)).toBe(true);
    expect(refusedArgs("error: invalid hunk at line 4, '' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}'")).toBe(true);
    expect(refusedArgs("Invalid patch hunk on line 3: '' is not a valid hunk header.")).toBe(true);
    expect(refusedArgs("Invalid patch: The last line of the patch must be '*** End Patch'")).toBe(true);
    expect(refusedArgs(CONTENT)).toBe(false);
    expect(refusedArgs('String to replace not found in file.')).toBe(false);
    expect(refusedArgs('SyntaxError: invalid syntax (line 4)')).toBe(false);
  });
});
