/**
 * LoopDetector.waiting: the proposals with an id still waiting for their outcome, as the calls that were
 * proposed, so a host that learns an outcome its agent never sent (a Codex call that failed without a
 * PostToolUse, src/hooks/codex-missed-outcomes.ts) can record it. It changes nothing, and a session moved
 * by its snapshot (a hook's process per call) has the same calls waiting. LoopEngine.waiting lists a live
 * session's the same way (serve's hook routes, src/hooks/missed-records.ts).
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector, LoopEngine } from '../src/index.js';

const patch = { tool: 'apply_patch', args: { command: '*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n*** End Patch' } };

describe('LoopDetector.waiting', () => {
  it('should list the proposals with an id not recorded yet, oldest first, as proposed', () => {
    const d = new LoopDetector({ sessionId: 'w' });
    expect(d.waiting()).toEqual([]);
    d.propose({ ...patch, id: 'call_1' });
    d.propose({ tool: 'mcp__lw__lookup', args: { key: 'beta' }, id: 'call_2' });
    d.propose({ tool: 'Read', args: { file_path: 'a.txt' } }); // no id: never listed
    d.record({ tool: 'mcp__lw__lookup', args: { key: 'beta' }, id: 'call_2', result: 'beta is 7' });
    expect(d.waiting()).toEqual([{ id: 'call_1', ...patch }]);
    expect(d.waiting()).toEqual([{ id: 'call_1', ...patch }]); // listing takes nothing out
    d.dispose();
  });

  it('should list the same calls after the session moved by its snapshot, and none once they are recorded', () => {
    const d = new LoopDetector({ sessionId: 'w2' });
    d.propose({ ...patch, id: 'call_1' });
    const moved = new LoopDetector({ sessionId: 'w2' });
    moved.restore(d.snapshot());
    expect(moved.waiting()).toEqual(d.waiting());
    moved.record({ ...patch, id: 'call_1', error: 'apply_patch verification failed: Failed to find expected lines in a.txt:\nx' });
    expect(moved.waiting()).toEqual([]);
    d.dispose();
    moved.dispose();
  });
});

describe('LoopEngine.waiting', () => {
  it("should list a live session's calls waiting as its detector does, and none for a session not live, without starting it", () => {
    const engine = new LoopEngine();
    expect(engine.waiting('nobody')).toEqual([]);
    expect(engine.has('nobody')).toBe(false);
    engine.propose('s', { ...patch, id: 'call_1' }, true);
    engine.propose('s', { tool: 'mcp__lw__lookup', args: { key: 'beta' }, id: 'call_2' }, true);
    expect(engine.waiting('s')).toEqual([{ id: 'call_1', ...patch }, { id: 'call_2', tool: 'mcp__lw__lookup', args: { key: 'beta' } }]);
    engine.record('s', { ...patch, id: 'call_1', error: 'apply_patch verification failed' });
    expect(engine.waiting('s')).toEqual([{ id: 'call_2', tool: 'mcp__lw__lookup', args: { key: 'beta' } }]);
    engine.close();
  });
});
