import { describe, expect, it } from 'vitest';
import { LINE_FLUSH, LoopEngine } from '../src/engine/loop-engine.js';
import type { SessionEvent } from '../src/engine/loop-engine.js';

/** Events-format records of 7 interleaved sessions, each repeating one call (so verdicts come). */
function records(n: number): SessionEvent[] {
  const out: SessionEvent[] = [];
  for (let i = 0; i < n; i++) out.push({ session: `s${i % 7}`, tool: 'probe', args: { q: `x${(i >> 5) % 3}` }, result: 'same answer' });
  return out;
}

describe('LoopEngine.checkLines', () => {
  it('should check calls read from bytes a few at a time, not once the whole batch is read', () => {
    const n = LINE_FLUSH * 8;
    const lines = records(n).map((e) => Buffer.from(JSON.stringify(e)));
    // how far checkLines has read when each call is taken into the module (a tool's identity runs then)
    let read = 0;
    const watched = new Proxy(lines, {
      get(t, k, r) {
        if (typeof k === 'string' && /^\d+$/.test(k)) read = Math.max(read, Number(k) + 1);
        return Reflect.get(t, k, r) as unknown;
      },
    });
    const readWhenTaken: number[] = [];
    const engine = new LoopEngine({ tools: { probe: { identity: (a) => (readWhenTaken.push(read), a) } } });
    const out = engine.checkLines(watched);
    engine.close();
    expect(out.some((v) => v instanceof Error)).toBe(false);
    expect(readWhenTaken[0]).toBeLessThanOrEqual(LINE_FLUSH);
    expect(Math.max(...readWhenTaken)).toBe(n);
  });

  it('should give the verdicts checkBatch gives the same calls, a line that holds none keeping its place', () => {
    const events = records(LINE_FLUSH * 5 + 3);
    const lines: Uint8Array[] = events.map((e) => Buffer.from(JSON.stringify(e)));
    lines.splice(70, 0, Buffer.from('not json'));
    lines.splice(100, 0, Buffer.from(JSON.stringify({ session: 's1', tool: 'probe', step: 'x' })));
    const byLines = new LoopEngine();
    const byObjects = new LoopEngine();
    const got = byLines.checkLines(lines);
    const want = byObjects.checkBatch(events);
    byLines.close();
    byObjects.close();
    expect(String(got[70])).toMatch(/^InvalidEventError: lines\[70\]: the record is not JSON/);
    expect(String(got[100])).toMatch(/^InvalidEventError: lines\[100\]: "step" must be a finite number/);
    expect(got.filter((_, i) => i !== 70 && i !== 100)).toEqual(want);
    expect(want.filter((v) => v !== null).length).toBeGreaterThan(10);
  });
});
