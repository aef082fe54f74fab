/**
 * A new call proposed after similar calls is weighed on the calls that ran (src/policy/new-call-proposed.ts):
 * on the real-session sets every session warned two-phase but not one-phase was a warning at a proposal, and
 * most were a call never made before, proposed after two similar ones stalled (a third form of `unittest`
 * after two "NO TESTS RAN", a third `rg` string after two found nothing, the executions list widened right
 * after an empty one). Its outcome settles it; one-phase, seeing it, is quiet. A loop the calls that ran make
 * by themselves still warns at the proposal, as does a call that ran proposed again. Both engines.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LoopDetectorOptions, ToolEvent } from '../src/index.js';
import { detectionOptions } from '../src/cli/detection-options.js';
import { ENGINES, type Engine, liveActions, verdictsOf } from './helpers/verdicts.js';

/** The labelled two-phase actions of `events` through a LoopDetector made with `options`. */
const twoPhase = (events: readonly ToolEvent[], engine: Engine, options: LoopDetectorOptions): string[] =>
  liveActions(events, engine, { labelled: true, detector: options });

/** The shipped `default` preset, as `loopwatch eval` and the coding-agent hooks run it. */
const SHIPPED = detectionOptions('default', undefined);

const bash = (command: string, out: string, failed = false): ToolEvent => ({ tool: 'Bash', args: { command }, ...(failed ? { error: out } : { result: out }) });
const NO_TESTS = 'Exit code 1\n\n----------------------------------------------------------------------\nRan 0 tests in 0.000s\n\nNO TESTS RAN\n';
const PASSED = '....\n----------------------------------------------------------------------\nRan 4 tests in 0.012s\n\nOK\n';
const status = bash('git status --short', ' M src/git_alias/core.py\n');
const unittest = (extra: string, out = NO_TESTS, failed = true): ToolEvent => bash(`PYTHONPATH=src python3 -m unittest${extra}`, out, failed);

/** `unittest` finds no tests twice, then `discover -s tests` finds and passes them. */
const thirdForm: ToolEvent[] = [status, unittest(''), unittest(' discover'), unittest(' discover -s tests', PASSED, false)];
/** Forms of `unittest` tried blind, each finding no tests: a struggle that goes on. */
const blind: ToolEvent[] = [status, ...['', ' discover', ' discover -v', ' discover -p', ' discover -b'].map((x) => unittest(x))];
/** The form that found no tests proposed again, twice, nothing between. */
const sameAgain: ToolEvent[] = [status, unittest(''), unittest(' discover'), unittest(' discover'), unittest(' discover')];

/** Codex-like `rg` of a log: a query that matches nothing fails with exit 1 (its output what rg printed before). */
const rg = (query: string, out: string | null): ToolEvent => bash(`rg "${query}" logs/pm2-out.log`, out ?? 'Exit code 1\n2025-11-27 19:13:28 +08:00: Claude CLI stdout: {"type":"user"}', out === null);
/** Two strings not in the log, other looks, then a third string that is. */
const thirdString: ToolEvent[] = [
  bash('ls logs', 'pm2-out.log\npm2-error.log\n'),
  rg('sendFile', null),
  rg('sendFailed', null),
  bash('sqlite3 server/auth.db "select id, content from message_log order by id desc limit 5;"', '905|Response sent\n904|proxy request\n'),
  bash('sed -n 1,120p server/lib/file-watcher.js', "import chokidar from 'chokidar';\nexport class FileWatcher {\n  start() {}\n}\n"),
  rg('ae2f0a2', '2025-11-28 08:33:54 +08:00: Chat ID: oc_ae2f0a2adb187ed0\n'),
];

const COM_ERROR = 'Exit code 1\nTraceback (most recent call last):\n  File "scripts/extract_v2.py", line 9, in <module>\n    app = win32com.client.Dispatch("PowerPoint.Application")\npywintypes.com_error: (-2146959355, \'Server execution failed\', None, None)\n';
/** A script failing twice on the same COM error, a new script written, and run. */
const newScript: ToolEvent[] = [
  bash('ls scripts', 'extract_v2.py\n'),
  bash('python3 scripts/extract_v2.py', COM_ERROR, true),
  bash('python3 scripts/extract_v2.py --visible', COM_ERROR, true),
  { tool: 'Write', args: { file_path: 'scripts/extract_zip.py', content: 'import zipfile\nwith zipfile.ZipFile(SRC) as z:\n    print(z.namelist())\n' }, result: 'File created successfully at: scripts/extract_zip.py' },
  bash('python3 scripts/extract_zip.py', 'WROTE: out/slides_dump.txt (slides=30)\n'),
];

const FLOW = 'LHPHYhAPIEHVxGBo';
const EMPTY = JSON.stringify({ success: true, data: { executions: [], returned: 0, nextCursor: null, hasMore: false } }, null, 2);
const FOUND = JSON.stringify({ success: true, data: { executions: [{ id: '29', finished: false, mode: 'manual', workflowId: FLOW }], returned: 1 } }, null, 2);
const list = (args: Record<string, unknown>, out: string): ToolEvent => ({ tool: 'mcp__n8n-mcp__n8n_executions', args: { action: 'list', ...args }, result: out });
const update = (type: string): ToolEvent => ({
  tool: 'mcp__n8n-mcp__n8n_update_partial_workflow',
  args: { id: FLOW, operations: [{ type }] },
  result: JSON.stringify({ success: true, data: { id: FLOW, operationsApplied: 1 }, message: `Workflow updated: ${type}` }),
});
const trigger: ToolEvent = { tool: 'mcp__n8n-mcp__n8n_test_workflow', args: { workflowId: FLOW, triggerType: 'chat', message: 'Is my idea viable?' }, result: JSON.stringify({ success: true, data: '', message: 'Workflow triggered successfully via chat' }) };
/** A workflow's executions listed after each update and test run, always empty; then the list widened to every workflow. */
const widened: ToolEvent[] = [
  list({ workflowId: FLOW, limit: 5 }, EMPTY),
  list({ workflowId: FLOW, limit: 10, includeData: true }, EMPTY),
  update('updateSettings'),
  trigger,
  list({ workflowId: FLOW, limit: 10 }, EMPTY),
  update('deactivateWorkflow'),
  update('activateWorkflow'),
  trigger,
  list({ workflowId: FLOW, limit: 10 }, EMPTY),
  list({ limit: 20 }, FOUND),
];

/** The library's defaults and the shipped `default` preset (what `loopwatch eval` and the hooks run). */
const OPTIONS: [string, LoopDetectorOptions][] = [
  ['library defaults', {}],
  ['shipped default preset', SHIPPED],
];

describe.each(ENGINES)('a new call proposed after similar calls (%s engine)', (engine) => {
  describe.each(OPTIONS)('%s', (_name, options) => {
    it('should not warn a third form of a command proposed after two found nothing (unittest)', () => {
      expect(twoPhase(thirdForm, engine, options)).toEqual([]);
    });

    it('should not warn a third search string proposed after two failed, other looks between (rg)', () => {
      expect(twoPhase(thirdString, engine, options)).toEqual([]);
    });

    it('should not warn a new script proposed after the old one failed twice, written between', () => {
      expect(twoPhase(newScript, engine, options)).toEqual([]);
    });

    it('should not warn a wider look proposed right after an empty one, work between the looks (n8n executions)', () => {
      expect(twoPhase(widened, engine, options)).toEqual([]);
    });

    it('should warn forms tried blind at the record of the third (no longer at its proposal), then at the proposals, and break them', () => {
      expect(twoPhase(blind, engine, options)).toEqual(['R3:warn', 'P4:warn', 'P5:deny']);
    });

    it('should still warn a call that ran proposed again, at its proposal', () => {
      expect(twoPhase(sameAgain, engine, options)).toEqual(['P3:warn', 'R3:warn', 'P4:warn']);
    });

    it('should leave one-phase as it was (the outcome known, nothing deferred)', () => {
      for (const events of [thirdForm, thirdString, newScript, widened]) expect(verdictsOf(events, { ...options, engine }).filter((v) => v !== null)).toEqual([]);
      expect(verdictsOf(blind, { ...options, engine }).map((v) => v?.action ?? '-')).toEqual(['-', '-', '-', 'warn', 'warn', 'break']);
    });
  });
});

describe('a new call proposed after similar calls, random sessions', () => {
  const FORMS = ['', ' discover', ' discover -s tests', ' discover -v'];
  /** A session of `unittest` forms (finding no tests, or passing), edits, status looks and other work. */
  const step = fc.record({ kind: fc.constantFrom('none', 'none', 'pass', 'edit', 'status'), form: fc.nat(FORMS.length - 1) });
  const session = fc.array(step, { minLength: 3, maxLength: 20 }).map((steps) =>
    steps.map(({ kind, form }, i): ToolEvent => {
      if (kind === 'edit') return { tool: 'Edit', args: { file_path: `src/m${form}.py`, old_string: `x = ${i}`, new_string: `x = ${i + 1}` }, result: `The file src/m${form}.py has been updated successfully.` };
      if (kind === 'status') return status;
      return kind === 'pass' ? unittest(FORMS[form] as string, PASSED, false) : unittest(FORMS[form] as string);
    }),
  );

  it('should be decided alike by both engines, two-phase', () => {
    fc.assert(
      fc.property(session, (events) => {
        expect(twoPhase(events, 'wasm', SHIPPED)).toEqual(twoPhase(events, 'reference', SHIPPED));
        expect(liveActions(events, 'wasm', { labelled: true })).toEqual(liveActions(events, 'reference', { labelled: true }));
      }),
      { numRuns: 150 },
    );
  });
});
