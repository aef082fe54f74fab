/**
 * A read that succeeded is no failure, whatever the file says (quiet19; devset caa2374e #60: Claude Code's
 * `Read` of a design doc whose checklist says "Test capacity limit enforcement (room full error)" was
 * recorded as a failed call, CallFact.FAILED, by the outcome facts' reading of the result for a failure
 * report). A read tool's result without an error is the file's content (src/text/read-tool-content.ts): it
 * reports no outcome, as a shell command that only prints files reports none. The twins still fail: a read
 * the tool flagged as failed (`is_error`, a Gemini status `error`), and an editor's view that answers its
 * failure as text ("ERROR:\nInvalid `view_range`"), with no header of file content.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { CallFact } from '../src/policy/call-facts.js';
import { outcomeFacts } from '../src/policy/outcome-facts.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { ReferencePipeline } from '../src/session/reference-pipeline.js';
import { READ_TOOLS, isFileContent } from '../src/text/read-tool-content.js';
import { reportsFailure } from '../src/text/failure-report.js';
import { WasmPipeline } from '../src/wasm/wasm-pipeline.js';

const PLAN = [
  '   41→## Launch checklist',
  '   42→- [ ] Try a signup with an email already taken (form shows an error)',
  '   43→- [ ] Payment fails with an expired card: the order stays unpaid',
  '   44→- [ ] Restart the worker mid-import; no fatal exception in the log',
].join('\n');
const VIEW = "Here's the result of running `cat -n` on /workspace/app/errors.py:\n     1\tclass ConfigError(Exception):\n     2\t    \"\"\"Raised when a config file fails to load.\"\"\"\n";
const WINDOW = '[File: /app/src/handlers.py (120 lines total)]\n1:def handle(req):\n2:    raise RuntimeError("request failed")\n';

/** The outcome facts of `e`, as each engine's pipeline records it (the module's reading given, and not). */
function factsOf(e: ToolEvent): number[] {
  const o = resolveOptions({});
  const w = new WasmPipeline(o);
  const r = new ReferencePipeline(o);
  try {
    w.observe(e);
    r.observe(e);
    return [
      outcomeFacts(e, w.log, w.lastIndex, { bits: 0, target: 0 }, true, w.reading).bits,
      outcomeFacts(e, w.log, w.lastIndex, { bits: 0, target: 0 }, true).bits,
      outcomeFacts(e, r.log, r.lastIndex, { bits: 0, target: 0 }, true).bits,
    ];
  } finally {
    w.dispose();
  }
}

const failed = (bits: number): boolean => (bits & CallFact.FAILED) !== 0;

describe('a read tool whose file content says "error"', () => {
  it('should read as content whose text reports a failure (the premise: the text alone would be a failure)', () => {
    for (const text of [PLAN, VIEW, WINDOW]) expect(reportsFailure(text)).toBe(true);
  });

  it("should not be a failed call: Claude Code's Read, Gemini CLI's read_file and read_many_files, in both engines", () => {
    for (const e of [
      { tool: 'Read', args: { file_path: '/home/dev/docs/launch.md', offset: 41, limit: 4 }, result: PLAN },
      { tool: 'read_file', args: { absolute_path: '/home/dev/docs/launch.md' }, result: PLAN.replace(/ *\d+→/g, '') },
      { tool: 'read_many_files', args: { paths: ['docs/launch.md'] }, result: `--- docs/launch.md ---\n${PLAN}` },
    ]) {
      for (const bits of factsOf(e)) expect(failed(bits), e.tool).toBe(false);
    }
  });

  it("should not be a failed call: an editor's view of file content (str_replace_editor view, SWE-agent's open), in both engines", () => {
    for (const e of [
      { tool: 'str_replace_editor', args: { command: 'view', path: '/workspace/app/errors.py' }, result: VIEW },
      { tool: 'open', args: { command: 'open src/handlers.py' }, result: WINDOW },
    ]) {
      for (const bits of factsOf(e)) expect(failed(bits), e.tool).toBe(false);
    }
  });

  it('should not be a pass either: a file that says "9 passed" reports no check', () => {
    const e = { tool: 'Read', args: { file_path: '/home/dev/docs/ci.md' }, result: '1→Last run: 9 passed' };
    for (const bits of factsOf(e)) expect(bits & (CallFact.FAILED | CallFact.CLEAN)).toBe(0);
  });

  it('should give the same facts in both engines, with the module\'s reading and without, whatever the content', () => {
    const words = fc.constantFrom('error', 'failed', 'Traceback', '9 passed', 'in progress', 'status: running', '❌', '→', '\n', ' ', 'ok');
    const content = fc.array(fc.oneof(words, fc.string({ maxLength: 8 })), { maxLength: 12 }).map((p) => p.join(' '));
    fc.assert(
      fc.property(fc.constantFrom(...READ_TOOLS), content, (tool, result) => {
        const [given, own, reference] = factsOf({ tool, args: { file_path: '/a/b.md' }, result });
        return given === own && own === reference && own !== undefined && !failed(own);
      }),
      { numRuns: 200 },
    );
  });
});

describe('a read that truly failed', () => {
  it('should still be a failed call: a Read the tool flagged (file not found, is_error), in both engines', () => {
    const e = { tool: 'Read', args: { file_path: '/home/dev/docs/lanch.md' }, error: '<tool_use_error>File does not exist.</tool_use_error>' };
    for (const bits of factsOf(e)) expect(failed(bits)).toBe(true);
  });

  it("should still be a failed call: an editor's view answering its failure as text, without a header of file content", () => {
    for (const e of [
      { tool: 'str_replace_editor', args: { command: 'view', path: '/workspace/app', view_range: [0, 40] }, result: 'ERROR:\nThe `view_range` parameter is not allowed when `path` points to a directory.' },
      { tool: 'open', args: { command: 'open src/nothere.py' }, result: 'Error: File src/nothere.py not found' },
    ]) {
      for (const bits of factsOf(e)) expect(failed(bits), e.tool).toBe(true);
    }
  });

  it('should still read a shell run whose output reports a failure as failed (only read tools are content)', () => {
    const e = { tool: 'Bash', args: { command: 'npm test' }, result: 'FAIL src/cart.test.ts\n1 failed, 8 passed' };
    for (const bits of factsOf(e)) expect(failed(bits)).toBe(true);
  });
});

describe('what is file content', () => {
  it("should take a view's content only with its header, SWE-agent's window only with its line count", () => {
    expect(isFileContent('str_replace_editor', VIEW)).toBe(true);
    expect(isFileContent('open', WINDOW)).toBe(true);
    expect(isFileContent('str_replace_editor', '<NOTE>This file is too large to display entirely. Showing abbreviated version.\n1 class A:')).toBe(true);
    expect(isFileContent('open', '[File: no line count] failed')).toBe(false);
    expect(isFileContent('str_replace_editor', 'ERROR:\nInvalid `view_range`: [0, 40].')).toBe(false);
    expect(isFileContent('Bash', VIEW)).toBe(false);
    expect(isFileContent('Read', 'anything at all')).toBe(true);
  });
});
