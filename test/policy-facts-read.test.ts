/**
 * A session reads only the outcome facts its detectors' verdicts can read (src/policy/facts-read.ts): with
 * exact repeat, cycle or chanting alone, a change's file and a failed command's program, whether a failure
 * was silent, whether a call that did not fail wrote, and whether a check passed or reported a state are left unread (0); every
 * other fact is read as when all are asked, and with the detectors that read them they are read as before.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Detector } from '../src/detectors/detector.js';
import { CallFact } from '../src/policy/call-facts.js';
import { FACTS_ALL, FactsRead, factsRead } from '../src/policy/facts-read.js';
import { outcomeFacts } from '../src/policy/outcome-facts.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import type { ToolEvent } from '../src/types.js';
import { WasmPipeline } from '../src/wasm/wasm-pipeline.js';

const ALL = ['exactRepeat', 'frequency', 'cycle', 'semantic', 'similarArgs', 'resultRepeat', 'deadEnd', 'stateRepeat', 'chanting'];
const only = (...on: string[]) => ({ detectors: Object.fromEntries(ALL.map((d) => [d, on.includes(d)])) });
const custom: Detector = { name: 'mine', record: () => undefined, check: () => null, reset: () => undefined };

/** The bits left unread when FactsRead has none. */
const UNREAD = CallFact.SILENT | CallFact.WRITE | CallFact.CHANGED | CallFact.CLEAN | CallFact.STATUS;

describe('factsRead', () => {
  it('should read none of the optional facts with exact repeat, cycle or chanting alone, or the three together', () => {
    for (const set of [['exactRepeat'], ['cycle'], ['chanting'], ['exactRepeat', 'cycle', 'chanting']]) expect(factsRead(resolveOptions(only(...set)))).toBe(0);
  });

  it('should read every fact with the default detectors, or a custom detector', () => {
    expect(factsRead(resolveOptions({}))).toBe(FACTS_ALL);
    expect(factsRead(resolveOptions({ ...only('exactRepeat'), custom: [custom] }))).toBe(FACTS_ALL);
  });

  it('should read targets and writes with a detector whose repetitions have work between them, silence with a dead end or a fuzzy one', () => {
    for (const d of ['frequency', 'stateRepeat', 'resultRepeat']) expect(factsRead(resolveOptions(only(d)))).toBe(FactsRead.TARGET | FactsRead.WRITE_OK | FactsRead.CLEAN);
    for (const d of ['deadEnd', 'semantic', 'similarArgs']) expect(factsRead(resolveOptions(only(d)))).toBe(FACTS_ALL);
  });
});

const COMMANDS = ['sed -i s/a/b/ src/a.ts', 'echo hi > out.txt', 'npm test', 'ls src', 'sleep 30 && gh run list', 'missingtool --version', 'git status'];
const RESULTS = [undefined, null, '', 'ok', '9 passed', 'error: Failed to find expected lines', '{"status": "in_progress"}', 'The file src/a.ts has been updated successfully.', 'Exit code 1'];
const ERRORS = [undefined, 'Exit code 1', 'zsh:1: command not found: missingtool', 'permission denied', 'rate limit exceeded', "The user doesn't want to proceed with this tool use.", 'Traceback (most recent call last):'];
const call = fc.record({
  tool: fc.constantFrom('Bash', 'Edit', 'Read'),
  command: fc.constantFrom(...COMMANDS),
  result: fc.constantFrom(...RESULTS),
  error: fc.constantFrom(...ERRORS),
});

function eventOf(c: { tool: string; command: string; result: string | null | undefined; error: string | undefined }): ToolEvent {
  const args = c.tool === 'Bash' ? { command: c.command } : { file_path: `src/${c.command.length}.ts`, old_string: 'a', new_string: c.command };
  return { tool: c.tool, args, ...(c.result === undefined ? {} : { result: c.result }), ...(c.error === undefined ? {} : { error: c.error }) };
}

describe('outcomeFacts with only some facts read', () => {
  it('should leave a successful edit\'s write and file, and a silent failure\'s silence and program, unread', () => {
    const p = new WasmPipeline(resolveOptions({}));
    const edit: ToolEvent = { tool: 'Edit', args: { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' }, result: '' };
    p.observe(edit);
    const whole = outcomeFacts(edit, p.log, p.lastIndex, { bits: 0, target: 0 }, true, p.reading);
    expect(whole.bits & (CallFact.WRITE | CallFact.CHANGED)).toBe(CallFact.WRITE | CallFact.CHANGED);
    expect(whole.target).not.toBe(0);
    const none = outcomeFacts(edit, p.log, p.lastIndex, { bits: 0, target: 0 }, true, p.reading, 0);
    expect(none.bits & (CallFact.WRITE | CallFact.CHANGED)).toBe(0);
    // an empty answer is a pass (CLEAN), read only when asked
    expect(whole.bits & CallFact.CLEAN).toBe(CallFact.CLEAN);
    expect(none.bits & CallFact.CLEAN).toBe(0);
    expect(none.target).toBe(0);
    const failed: ToolEvent = { tool: 'Bash', args: { command: 'rg needle src' }, error: 'Exit code 1' };
    p.observe(failed);
    const fullFail = outcomeFacts(failed, p.log, p.lastIndex, { bits: 0, target: 0 }, true, p.reading);
    expect(fullFail.bits & CallFact.SILENT).toBe(CallFact.SILENT);
    expect(fullFail.target).not.toBe(0);
    const lazyFail = outcomeFacts(failed, p.log, p.lastIndex, { bits: 0, target: 0 }, true, p.reading, 0);
    expect(lazyFail.bits).toBe(fullFail.bits & ~CallFact.SILENT);
    expect(lazyFail.target).toBe(0);
    p.dispose();
  });

  it('should still read the write of a call that failed, or whose output reports a failure', () => {
    const p = new WasmPipeline(resolveOptions({}));
    for (const e of [
      { tool: 'Bash', args: { command: 'echo hi > out.txt' }, error: 'Exit code 1' },
      { tool: 'Bash', args: { command: 'echo hi > out.txt' }, result: 'error: Failed to find expected lines' },
    ] as ToolEvent[]) {
      p.observe(e);
      expect(outcomeFacts(e, p.log, p.lastIndex, { bits: 0, target: 0 }, true, p.reading, 0).bits & (CallFact.WRITE | CallFact.FAILED)).toBe(CallFact.WRITE | CallFact.FAILED);
    }
    p.dispose();
  });

  it('should give every fact it reads as the whole reading gives it, whatever is left unread', () => {
    const p = new WasmPipeline(resolveOptions({}));
    fc.assert(
      fc.property(call, fc.integer({ min: 0, max: FACTS_ALL }), (c, read) => {
        const e = eventOf(c);
        p.observe(e);
        const whole = outcomeFacts(e, p.log, p.lastIndex, { bits: 0, target: 0 }, true, p.reading);
        const part = outcomeFacts(e, p.log, p.lastIndex, { bits: 0, target: 0 }, true, p.reading, read);
        const kept =
          ~UNREAD |
          ((read & FactsRead.SILENT) !== 0 ? CallFact.SILENT : 0) |
          ((read & FactsRead.CLEAN) !== 0 ? CallFact.CLEAN | CallFact.STATUS : 0) |
          ((read & FactsRead.WRITE_OK) !== 0 || (whole.bits & CallFact.FAILED) !== 0 ? CallFact.WRITE | CallFact.CHANGED : 0);
        expect(part.bits).toBe(whole.bits & kept);
        // a target is read only when asked, and then as the whole reading has it (a change's file needs its write read too)
        const targetRead = (read & FactsRead.TARGET) !== 0 && ((whole.bits & CallFact.CHANGED) === 0 || (read & FactsRead.WRITE_OK) !== 0);
        expect(part.target).toBe(targetRead ? whole.target : 0);
      }),
      { numRuns: 600 },
    );
    p.dispose();
  });
});
