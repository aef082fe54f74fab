/**
 * `LoopEngine.evict(id)`: a host that bounds sessions by something else than their number (the service
 * bounds them by memory) drops one as the `maxSessions` cap does: `onEvict` sees it first with its
 * snapshot, it counts as evicted, and the session starts again empty.
 */
import { describe, expect, it } from 'vitest';
import { LoopEngine } from '../src/index.js';

describe('LoopEngine.evict', () => {
  it('should drop a live session as the cap does, onEvict first with its snapshot, and say false for one not live', () => {
    const seen: { id: string; reason: string; bytes: number }[] = [];
    const engine = new LoopEngine({ onEvict: (s) => void seen.push({ id: s.sessionId, reason: s.reason, bytes: s.snapshot().length }) });
    try {
      const call = { tool: 'bash', args: { command: 'make' } };
      for (let i = 0; i < 2; i++) engine.check('a', call);
      expect(engine.evict('a')).toBe(true);
      expect(engine.has('a')).toBe(false);
      expect(seen).toEqual([{ id: 'a', reason: 'evicted', bytes: expect.any(Number) }]);
      expect(seen[0]?.bytes).toBeGreaterThan(0);
      expect(engine.stats()).toMatchObject({ evicted: 1, ended: 0, live: 0 });
      expect(engine.evict('a')).toBe(false);
      // started again empty: the third identical call is the first of a new session
      expect(engine.check('a', call)).toBeNull();
    } finally {
      engine.close();
    }
  });
});
