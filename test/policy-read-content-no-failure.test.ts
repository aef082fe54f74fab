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
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

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

describe('a read tool\'s file content, as a report of the state', () => {
  it('should be a report of the state (CallFact.STATUS) as the same file printed by `cat` is, in both engines', () => {
    const cat = { tool: 'Bash', args: { command: 'cat /home/dev/docs/launch.md' }, result: PLAN };
    for (const bits of factsOf(cat)) expect(bits & CallFact.STATUS).toBe(CallFact.STATUS);
    for (const e of [
      { tool: 'Read', args: { file_path: '/home/dev/docs/launch.md' }, result: PLAN },
      { tool: 'read_file', args: { file_path: '/home/dev/docs/launch.md' }, result: PLAN },
      { tool: 'str_replace_editor', args: { command: 'view', path: '/workspace/app/errors.py' }, result: VIEW },
    ]) {
      for (const bits of factsOf(e)) expect(bits & (CallFact.STATUS | CallFact.FAILED), e.tool).toBe(CallFact.STATUS);
    }
  });

  it('should not be one when the read failed', () => {
    const e = { tool: 'Read', args: { file_path: '/home/dev/docs/lanch.md' }, error: '<tool_use_error>File does not exist.</tool_use_error>' };
    for (const bits of factsOf(e)) expect(bits & CallFact.STATUS).toBe(0);
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

describe.each(ENGINES)('a file read again after each edit (%s engine)', (engine) => {
  // (holdout3 a27c5d52's shape, in other words: a Gemini CLI session reading its bot's source after each
  // edit; the source says `except Exception` and `logging.error`; some edits declined or not applied). A
  // guard: quiet before the fix as after it (the real session's warning needed more of its calls)
  const F = '/home/ana/bot/relay.py';
  const src = (n: number): string => `import logging, requests\n\ndef relay(msg):\n    try:\n        return requests.post(URL, json=msg, timeout=${n})\n    except Exception as error:\n        logging.error("relay failed: %s", error)\n`;
  const read = (n: number): ToolEvent => ({ tool: 'read_file', args: { file_path: F }, result: src(n) });
  const replace = (n: number, outcome: Partial<ToolEvent> = { result: `Successfully modified file: ${F} (1 replacements).` }): ToolEvent => ({ tool: 'replace', args: { file_path: F, old_string: `timeout=${n - 1}`, new_string: `timeout=${n}` }, ...outcome });
  const compile: ToolEvent = { tool: 'run_shell_command', args: { command: `python3 -m py_compile ${F}` }, result: 'Output: (empty)' };
  const session: ToolEvent[] = [
    { tool: 'list_directory', args: { dir_path: '/home/ana/bot' }, result: 'relay.py\nconfig.json' },
    read(1),
    replace(2, { error: '[Operation Cancelled] Reason: User denied execution.' }),
    replace(2),
    compile,
    read(2),
    replace(3, { error: `Failed to edit, 0 occurrences found for old_string in ${F}.` }),
    read(2),
    replace(3),
    compile,
    replace(4),
    { tool: 'run_shell_command', args: { command: 'systemctl restart relay-bot; journalctl -u relay-bot -n 5' }, result: 'Output: relay-bot.service: Failed with result exit-code.' },
    { tool: 'run_shell_command', args: { command: 'python3 -c "import relay; relay.relay({})"' }, error: '[Operation Cancelled] Reason: Operation cancelled' },
    read(4),
  ];

  it('should not warn, two-phase: each read is a look at the file as the last edit left it', () => {
    expect(liveActions(session, engine)).toEqual([]);
  });

  it('should not warn, two-phase: a Claude Code component read again after its edits, other files read between', () => {
    // (devset 817a5209's shape, in other words: the button read, its neighbours read, the button edited, read again)
    const dir = '/home/dev/web/src/pages/video/Detail';
    const tsx = (name: string, body: string): string => `     1→import { track } from '@/analytics'\n     2→\n     3→export function ${name}() {\n     4→  ${body}\n     5→}`;
    const readOf = (name: string, body = 'return null'): ToolEvent => ({ tool: 'Read', args: { file_path: `${dir}/${name}.tsx` }, result: tsx(name, body) });
    const editOf = (n: number): ToolEvent => ({ tool: 'Edit', args: { file_path: `${dir}/ShareButton.tsx`, old_string: `step ${n - 1}`, new_string: `step ${n}` }, result: `The file ${dir}/ShareButton.tsx has been updated successfully.` });
    const calls: ToolEvent[] = [
      { tool: 'Glob', args: { pattern: '**/*.tsx', path: dir }, result: `${dir}/ShareButton.tsx\n${dir}/Footer.tsx\n${dir}/Menu.tsx` },
      readOf('ShareButton', 'step 0'),
      readOf('Footer'),
      readOf('Menu'),
      readOf('Toolbar'),
      readOf('ShareButton', 'step 0'),
      editOf(1),
      readOf('Footer', 'return <Menu />'),
      readOf('Tooltip'),
      { tool: 'Glob', args: { pattern: '**/Tooltip*', path: dir }, result: `${dir}/Tooltip.tsx` },
      readOf('EllipsisText'),
      editOf(2),
      editOf(3),
      readOf('ShareButton', 'step 3'),
    ];
    expect(liveActions(calls, engine)).toEqual([]);
  });

  it('should still flag the same file read again and again with nothing changed between', () => {
    const stuck = Array.from({ length: 6 }, () => [read(1), compile]).flat();
    expect(flaggedActions(stuck, engine)).toContain('break');
  });
});
