/**
 * One patch-format slip made on different files, each fixed by the next call, is no wall (quiet10, from
 * codexerr: devset d7e0b7f3 #46, holdout2 019a4dc3 #34, Codex 0.3x `apply_patch` through `shell` writing spec
 * files one by one, a line without `+` in an `Add File` now and then). A dead end matches the error's class,
 * so the slips read as one wall; a failed write now keeps its file as its target (outcome-facts.ts), and a
 * dead end whose failures each name another file, each but the latest changed successfully afterwards, is
 * dropped (evidence-screen.ts eachSlipAnswered). A write failing again on one file stays a wall.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, verdictsOf } from './helpers/verdicts.js';

const HUNK = "error: invalid hunk at line 4, '' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'";
const patch = (file: string, body: string): ToolEvent['args'] => ({ command: ['apply_patch', `*** Begin Patch\n*** Add File: specs/${file}\n+# ${file}\n\n${body}\n*** End Patch`] });
const slip = (file: string): ToolEvent => ({ tool: 'shell', args: patch(file, 'text without a plus'), error: HUNK });
const fixed = (file: string): ToolEvent => ({ tool: 'shell', args: patch(file, '+text'), result: `Success. Updated the following files:\nA specs/${file}` });

/** Five spec files written, the slip made on three of them, each fixed at once. */
const answered: ToolEvent[] = [fixed('plan.md'), slip('research.md'), fixed('research.md'), fixed('data-model.md'), slip('api.yaml'), fixed('api.yaml'), slip('quickstart.md'), fixed('quickstart.md')];

/** The same file's patch failing again and again, other files written between. */
const stuck: ToolEvent[] = [fixed('plan.md'), slip('research.md'), fixed('data-model.md'), { ...slip('research.md'), args: patch('research.md', 'other text') }, fixed('api.yaml'), { ...slip('research.md'), args: patch('research.md', 'more text') }, fixed('quickstart.md'), { ...slip('research.md'), args: patch('research.md', 'yet more') }];

const deadEnds = (events: readonly ToolEvent[], engine: (typeof ENGINES)[number]): number => verdictsOf(events, { engine }).filter((v) => v?.kind === 'dead_end').length;

describe.each(ENGINES)('a slip made on different files, each fixed (%s engine)', (engine) => {
  it('should not be a dead end', () => {
    expect(deadEnds(answered, engine)).toBe(0);
  });

  it('should still be one when the same file fails again', () => {
    expect(deadEnds(stuck, engine)).toBeGreaterThan(0);
  });
});
