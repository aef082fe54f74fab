/**
 * Tool names in the call log: kept as numbers of a table the thread's sessions share, and as strings once
 * that table is full; either way verdicts name calls by their tools, in snapshots too.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { ToolEvent, Verdict } from '../src/index.js';
import { MAX_TOOL_NAMES, NO_TOOL_ID, toolId, toolName } from '../src/state/tool-names.js';
import { ENGINES } from './helpers/verdicts.js';

/** A cycle over two tools, then the verdict of its last call. */
function cycleVerdict(engine: (typeof ENGINES)[number], tools: readonly [string, string], restoreAt = -1): Verdict | null {
  let d = new LoopDetector({ engine, detectors: { similarArgs: false } });
  let v: Verdict | null = null;
  for (let i = 0; i < 8; i++) {
    if (i === restoreAt) {
      const bytes = d.snapshot();
      d.dispose();
      d = new LoopDetector({ engine, detectors: { similarArgs: false } });
      d.restore(bytes);
    }
    const e: ToolEvent = { tool: tools[i % 2] as string, args: { n: i % 2 } };
    v = d.check(e) ?? v;
  }
  d.dispose();
  return v;
}

describe('tool names in the call log', () => {
  it('should number a name once and give it back', () => {
    const a = toolId('read_file');
    expect(a).not.toBe(NO_TOOL_ID);
    expect(toolId(`read${'_file'}`)).toBe(a);
    expect(toolName(a)).toBe('read_file');
  });

  it('should name calls by their tools before and after the shared table is full, snapshots included', () => {
    const before = cycleVerdict('wasm', ['numbered_a', 'numbered_b']);
    expect(before?.unit.map((r) => r.tool)).toEqual(['numbered_a', 'numbered_b']);
    for (let i = 0; toolId(`filler-${i}`) !== NO_TOOL_ID; i++) expect(i).toBeLessThanOrEqual(MAX_TOOL_NAMES);
    expect(toolId('never_numbered')).toBe(NO_TOOL_ID);
    for (const engine of ENGINES) {
      for (const restoreAt of engine === 'wasm' ? [-1, 3] : [-1]) {
        const v = cycleVerdict(engine, ['unnumbered_a', 'numbered_b'], restoreAt);
        expect(v?.unit.map((r) => r.tool)).toEqual(['unnumbered_a', 'numbered_b']);
        expect(v?.pattern).toMatch(/^unnumbered_a \{"n":0\} → numbered_b \{"n":1\} repeated/);
      }
    }
  });
});
