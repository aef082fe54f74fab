/**
 * Must-not-break cases from reading the submitted runs the default policy broke (issue 16): what a
 * finishing agent does that looks like repetition. Each is run through the default LoopDetector on both
 * engines; the loops they resemble are in the neighbouring policy tests.
 */
import { describe, expect, it } from 'vitest';
import { ENGINES, type Engine, actionsOf, verdictsOf } from './helpers/verdicts.js';
import type { ToolEvent } from '../src/index.js';

const actions = (events: readonly ToolEvent[], engine: Engine): string[] => actionsOf(verdictsOf(events, { engine }));

const DIFF = 'diff --git a/src/parser.py b/src/parser.py\nindex 3a4c1e2..5b6d7f8 100644\n--- a/src/parser.py\n+++ b/src/parser.py\n@@ -40,7 +40,7 @@ def parse(tokens):\n-    return tokens[0]\n+    return tokens[1]\n';
const view = (content: string): ToolEvent => ({ tool: 'str_replace_editor', args: { command: 'view', path: '/repo/src/parser.py' }, result: `Here's the result of running cat -n on /repo/src/parser.py:\n${content}` });
const edit = (k: number): ToolEvent => ({ tool: 'str_replace_editor', args: { command: 'str_replace', path: '/repo/src/parser.py', old_str: `tokens[${k}]`, new_str: `tokens[${k + 1}]` }, result: `The file /repo/src/parser.py has been edited. Line 41: return tokens[${k + 1}]` });
const tests = (failed: number): ToolEvent => ({ tool: 'bash', args: { command: 'python -m pytest tests/test_parser.py -q' }, result: failed === 0 ? '36 passed in 0.41s' : `${failed} failed, ${36 - failed} passed in 0.52s`, ...(failed === 0 ? {} : { error: `exit status 1: ${failed} failed` }) });

describe.each(ENGINES)('finished work that looks like repetition (%s engine)', (engine) => {
  it('should not break a final review of the same diff through a few views', () => {
    const events: ToolEvent[] = [edit(0), tests(2), edit(1), tests(0)];
    for (const c of ['git diff', 'git diff -- src/parser.py', 'git status --short && git diff', 'git add -A && git diff --cached']) events.push({ tool: 'bash', args: { command: c }, result: DIFF });
    expect(actions(events, engine)).not.toContain('break');
  });

  it('should stay silent while a file is re-read after each edit', () => {
    const events: ToolEvent[] = [];
    for (let k = 0; k < 5; k++) events.push(view(`41\treturn tokens[${k}]`), edit(k));
    events.push(view('41\treturn tokens[5]'));
    expect(actions(events, engine).every((a) => a === '-')).toBe(true);
  });

  it('should not break verification re-runs after the fix whose results change, then pass', () => {
    const events: ToolEvent[] = [];
    [4, 3, 3, 1, 0, 0].forEach((failed, k) => events.push(edit(k), tests(failed)));
    expect(actions(events, engine)).not.toContain('break');
  });
});
