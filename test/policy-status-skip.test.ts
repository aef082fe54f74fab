/**
 * outcome-facts.ts no longer asks a call read as a pass (CallFact.CLEAN), or whose output reports a failure,
 * whether it reports the state (CallFact.STATUS): the evidence screen weighs STATUS only as `CLEAN ||
 * reportsState` (STATUS without FAILED). On random calls, STATUS is the old expression (a call that changes
 * nothing, a status query or a list of saved files) less those calls, and whether the call counts as a
 * check that passed is as before.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CallFact } from '../src/policy/call-facts.js';
import { reportsState } from '../src/policy/evidence-screen.js';
import { outcomeFacts } from '../src/policy/outcome-facts.js';
import { changesWorkspace } from '../src/policy/workspace-changes.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { queriesStatus } from '../src/text/status-query.js';
import { reportsSavedFiles } from '../src/text/saved-files.js';
import type { ToolEvent } from '../src/types.js';
import { WasmPipeline } from '../src/wasm/wasm-pipeline.js';

const COMMANDS = ['git status', 'gh auth status', './scripts/check-prerequisites.sh --json', 'python3 plot.py', 'npm test', 'ls src', 'git status && rm -rf out', 'echo hi > out.txt'];
const RESULTS = [
  undefined, null, '', 'ok', '9 passed', 'All tests passed', 'error: Failed to find expected lines', 'Saved: out/loss.png', 'Saved: a.png\nFAILED: 2 tests',
  'Figure saved to out/a.png\n3 passed', 'On branch main\nnothing to commit, working tree clean', 'Traceback (most recent call last):\n  x', '> app@0.1.0 lint\n> eslint .', 'Output: (empty)',
];
const call = fc.record({
  tool: fc.constantFrom('Bash', 'Edit', 'mcp__x__get_status'),
  command: fc.constantFrom(...COMMANDS),
  result: fc.constantFrom(...RESULTS),
  error: fc.constantFrom(undefined, undefined, 'Exit code 1'),
});

describe('outcomeFacts, STATUS not asked where CLEAN or a failure decided', () => {
  it('should give STATUS as the old expression less those calls, and the same pass', () => {
    const p = new WasmPipeline(resolveOptions({}));
    fc.assert(
      fc.property(call, (c) => {
        const args = c.tool === 'Edit' ? { file_path: 'src/a.ts', old_string: 'a', new_string: c.command } : { command: c.command };
        const e: ToolEvent = { tool: c.tool, args, ...(c.result === undefined ? {} : { result: c.result }), ...(c.error === undefined ? {} : { error: c.error }) };
        p.observe(e);
        const bits = outcomeFacts(e, p.log, p.lastIndex, { bits: 0, target: 0 }, true, p.reading).bits;
        // the old expression: any call with a result and no error that changes nothing, and asks for the state or lists saved files
        const text = typeof c.result === 'string' ? c.result : c.result === null ? '' : undefined;
        const old =
          c.error === undefined && text !== undefined && !changesWorkspace(c.tool, args) && ((c.tool !== 'Edit' && queriesStatus(c.command)) || reportsSavedFiles(text));
        const decided = (bits & (CallFact.CLEAN | CallFact.FAILED)) !== 0;
        expect((bits & CallFact.STATUS) !== 0).toBe(old && !decided);
        const oldBits = old ? bits | CallFact.STATUS : bits;
        expect((bits & CallFact.CLEAN) !== 0 || reportsState(bits)).toBe((oldBits & CallFact.CLEAN) !== 0 || reportsState(oldBits));
      }),
      { numRuns: 800 },
    );
    p.dispose();
  });
});
