import { afterEach, describe, expect, it, vi } from 'vitest';
import { valueSymbol } from 'piscina';
import { LINE_FLUSH, LoopEngine } from '../src/engine/loop-engine.js';
import { writeCheck, writeLine } from '../src/pool/event-packing.js';
import handle from '../src/pool/pool-worker.js';
import type { RunResult } from '../src/pool/worker-tasks.js';
import { ByteWriter } from '../src/snapshot/byte-writer.js';

/** 7 interleaved sessions, each repeating one call (so verdicts come). */
const events = Array.from({ length: LINE_FLUSH * 6 + 5 }, (_, i) => ({ session: `s${i % 7}`, tool: 'probe', args: { q: `x${(i >> 5) % 3}` }, result: 'same answer' }));

/** Runs one packed batch through a started worker, in this thread; its answer and the engine batches it checked. */
function runWorker(pack: (w: ByteWriter) => void): { result: RunResult; sizes: number[] } {
  const sizes: number[] = [];
  const real = LoopEngine.prototype.checkBatch;
  vi.spyOn(LoopEngine.prototype, 'checkBatch').mockImplementation(function (this: LoopEngine, batch) {
    sizes.push(batch.length);
    return real.call(this, batch);
  });
  handle({ kind: 'start', epoch: 1, options: {}, snapshotEvery: 0, snapshots: [] });
  const w = new ByteWriter(1 << 16);
  pack(w);
  const { buffer, length } = w.take();
  const moved = handle({ kind: 'run', epoch: 1, buffer: buffer as ArrayBuffer, length }) as unknown as Record<symbol, RunResult>;
  return { result: moved[valueSymbol] as RunResult, sizes };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('pool worker', () => {
  it('should check a batch of calls read from bytes a few at a time, with the verdicts of one engine', () => {
    const { result, sizes } = runWorker((w) => events.forEach((e, i) => writeLine(w, e.session, i, Buffer.from(JSON.stringify(e)))));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(LINE_FLUSH);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(events.length);
    const engine = new LoopEngine();
    const want = engine.checkBatch(events);
    engine.close();
    expect(result.errors).toEqual([]);
    expect(result.verdictAt).toEqual(want.flatMap((v, i) => (v === null ? [] : [i])));
    expect(result.verdicts).toEqual(want.filter((v) => v !== null));
    expect(result.verdicts.length).toBeGreaterThan(10);
  });

  it('should check packed objects a few at a time too', () => {
    const { result, sizes } = runWorker((w) => events.forEach((e) => writeCheck(w, e.session, e)));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(LINE_FLUSH);
    expect(result.verdicts.length).toBeGreaterThan(10);
  });
});
