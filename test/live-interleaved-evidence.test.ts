/**
 * A proposal is blocked on the same call's earlier answers (the same outcome twice) only when no new work
 * came between its runs (issue 27, two-phase; src/live/evidence.ts): an agent that rewrites its
 * reproduction script again and again (create refused: the file exists; remove it; create it anew; run
 * it, a new error each time) removes the same file with the same answer each round; that removal is warned
 * about, not blocked before it runs. The same call answered alike back to back, nothing else done, is
 * still blocked. Measured on the public traces: finished runs broken two-phase 19 -> 14.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { LiveCall, LoopDetectorOptions } from '../src/index.js';

const PATH = '/workspace/app/repro.py';
const ERRORS = ['RuntimeError: model has no app_label', 'ModuleNotFoundError: no module named repro_app', 'NotSupportedError: SQLite schema editor', 'TypeError: invalid keyword foreign_keys', 'OperationalError: no such table: meta'];

/** A new version of the script, created (refused when the file `exists`). */
const create = (k: number, exists: boolean): LiveCall => ({
  tool: 'editor',
  args: { command: 'create', path: PATH, file_text: `from app import models\nmodels.case_${k}()\n` },
  ...(exists ? { error: `ERROR: Invalid \`path\` parameter: ${PATH}. File already exists at: ${PATH}. Cannot overwrite files using command \`create\`.` } : { result: `File created successfully at: ${PATH}` }),
});
/** The removal of the script: the same call, the same answer, each time. */
const remove: LiveCall = { tool: 'bash', args: { command: `rm ${PATH}` }, result: '[The command completed with exit code 0.]\n[Current working directory: /workspace/app]' };
/** A run of the script, failing with a new error each time. */
const runScript = (k: number): LiveCall => ({ tool: 'bash', args: { command: 'cd /workspace/app && python repro.py' }, error: `[exit 1] Traceback (most recent call last):\n${ERRORS[k % ERRORS.length] as string}` });
const list: LiveCall = { tool: 'bash', args: { command: 'ls -R /workspace/app' }, result: 'app:\nmodels.py\nviews.py' };

/** Proposes and records each call (a blocked one is not recorded, and ends the run); the proposals' actions. */
function run(d: LoopDetector, calls: readonly LiveCall[]): string[] {
  const actions: string[] = [];
  for (const [i, c] of calls.entries()) {
    const p = d.propose({ ...c, id: `c${i}` });
    actions.push(p.action);
    if (p.action === 'deny' || p.action === 'stop') break;
    d.record({ ...c, id: `c${i}` });
  }
  return actions;
}

describe.each(['wasm', 'reference'] as const)('the same answer again after new work (%s engine)', (engine) => {
  const options: LoopDetectorOptions = { engine };

  it('should warn, not block, the removal of a script written anew before each removal', () => {
    // the refused creates reach break on record (#15, dead end); the removal proposed at #16 has answered
    // alike twice, a new version of the script written and run between: warned, not blocked
    const calls: LiveCall[] = [list, create(0, false), runScript(0)];
    for (let k = 1; k < 6; k++) calls.push(create(k, true), remove, create(k, false), runScript(k));
    const d = new LoopDetector(options, 's');
    try {
      const actions = run(d, calls);
      expect(actions).toHaveLength(calls.length);
      expect(actions).not.toContain('deny');
      expect(actions[16]).toBe('warn');
    } finally {
      d.dispose();
    }
  });

  it('should still block the same call answered alike back to back, nothing done between', () => {
    const d = new LoopDetector(options, 's');
    try {
      const actions = run(d, [list, create(0, false), ...Array.from({ length: 8 }, () => remove)]);
      expect(actions.at(-1)).toBe('deny');
    } finally {
      d.dispose();
    }
  });
});
