/**
 * Kind weights and the evidence screen together: a signal the policy weighed (`kindWeights`) and the
 * screen then marked (stalled, changing, mixed) is a whole signal, whose pattern still reads, so the
 * session gives its verdict rather than throwing. One- and two-phase, both engines: one command failing
 * again and again with a new error each time, nothing changed between (marked stalled); a test re-run after
 * each edit of another file, `progress: 'slow'` (marked changing, kept).
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { LoopDetectorOptions, ToolEvent, Verdict } from '../src/index.js';
import { ENGINES } from './helpers/verdicts.js';

const ERRORS = [
  "TypeError: Cannot read properties of undefined (reading 'map')",
  'ReferenceError: fetchUser is not defined',
  'SyntaxError: Unexpected token }',
  "Error: Cannot find module './config'",
  'RangeError: Maximum call stack size exceeded',
  'TypeError: db.query is not a function',
  'AssertionError: expected 200, got 500',
  'Error: listen EADDRINUSE: address already in use :::3000',
];
/** One command failing again and again, a different error each time, back to back. */
const newErrorEachTime: ToolEvent[] = ERRORS.map((error) => ({ tool: 'Bash', args: { command: 'npm start' }, error: `Exit code 1\n${error}` }));

const edit = (i: number): ToolEvent => ({ tool: 'Edit', args: { file_path: `src/mod${i}.ts`, old_string: `= ${i};`, new_string: `= ${i + 1};` }, result: `The file src/mod${i}.ts has been updated successfully.` });
/** The same test run after each edit of another file, passing each time. */
const testAfterEachEdit: ToolEvent[] = Array.from({ length: 10 }, (_, i) => [edit(i), { tool: 'Bash', args: { command: 'npm test' }, result: '' }]).flat();

/** Every built-in kind weighed a little under 1. */
const WEIGHTS = { exact_repeat: 0.95, frequency: 0.95, cycle: 0.95, semantic: 0.95, similar_args: 0.95, result_repeat: 0.95, dead_end: 0.95, state_repeat: 0.95 };

/** The verdicts of a one-phase replay. */
function checked(events: readonly ToolEvent[], options: LoopDetectorOptions): Verdict[] {
  const d = new LoopDetector(options);
  try {
    return events.map((e) => d.check(e)).filter((v): v is Verdict => v !== null);
  } finally {
    d.dispose();
  }
}

/** The verdicts of a two-phase replay: each call proposed, then recorded unless it was blocked. */
function live(events: readonly ToolEvent[], options: LoopDetectorOptions): Verdict[] {
  const d = new LoopDetector(options);
  const out: Verdict[] = [];
  try {
    for (const [i, e] of events.entries()) {
      const p = d.propose({ tool: e.tool, args: e.args, id: `c${i}` });
      if (p.verdict !== null) out.push(p.verdict);
      if (p.action === 'deny' || p.action === 'stop') break;
      const r = d.record({ ...e, id: `c${i}` });
      if (r.verdict !== null) out.push(r.verdict);
    }
  } finally {
    d.dispose();
  }
  return out;
}

/** Each verdict's action and its progress, its pattern and its signals' patterns read. */
const read = (vs: readonly Verdict[]): string[] => vs.map((v) => `${v.action}:${v.progress}:${v.pattern.length > 0 && v.signals.every((s) => s.pattern.length > 0)}`);

describe.each(ENGINES)('kind weights and the evidence screen (%s engine)', (engine) => {
  it('should break one command failing with a new error each time, its signals weighed', () => {
    const options = { engine, policy: { kindWeights: WEIGHTS } };
    expect(read(checked(newErrorEachTime, options))).toContain('break:stalled:true');
    expect(read(live(newErrorEachTime, options)).some((a) => a.startsWith('break:'))).toBe(true);
  });

  it('should keep a weighed check re-run after each new edit as progress when the policy slows progress', () => {
    const options = { engine, policy: { kindWeights: WEIGHTS, progress: 'slow' as const } };
    const one = read(checked(testAfterEachEdit, options));
    const two = read(live(testAfterEachEdit, options));
    expect(one.length).toBeGreaterThan(0);
    expect(two.length).toBeGreaterThan(0);
    for (const a of [...one, ...two]) expect(a.endsWith(':true')).toBe(true);
  });
});
