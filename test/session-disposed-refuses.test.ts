/**
 * Nothing reads a disposed session: dispose() gives its WebAssembly slot and its blocks of the thread's
 * shared memory back as they are (not copied first, branch perf42), so every method of a disposed
 * LoopDetector but stats() and dispose() throws a DisposedError, with either engine; a batch holds the
 * error in the call's place. Before, isStuck(), reset(), checkText() and the two-phase calls went on reading
 * (checkText() even made chanting's region again, which nothing freed).
 */
import { describe, expect, it } from 'vitest';
import { DisposedError, LoopDetector, LoopEngine } from '../src/index.js';
import type { LoopDetectorOptions, ToolEvent } from '../src/index.js';
import { liveRegions } from './helpers/chant-regions.js';

const call = (i: number): ToolEvent => ({ tool: 'read', args: { path: `f${i % 2}.ts` }, result: 'same', text: 'I will read the file again. I will read the file again.' });

/** Every method of a LoopDetector that reads or changes its session, called once. */
const uses: readonly [string, (d: LoopDetector) => unknown][] = [
  ['check', (d) => d.check(call(0))],
  ['checkMany', (d) => d.checkMany([call(0), call(1)])],
  ['checkText', (d) => d.checkText('again and again and again and again')],
  ['isStuck', (d) => d.isStuck()],
  ['reset', (d) => d.reset()],
  ['snapshot', (d) => d.snapshot()],
  ['restore', (d) => d.restore(new Uint8Array(16))],
  ['propose', (d) => d.propose({ id: 'a', tool: 'read', args: { path: 'x' } })],
  ['record', (d) => d.record({ id: 'a', tool: 'read', args: { path: 'x' }, result: 'r' })],
  ['decline', (d) => d.decline({ id: 'a', tool: 'read', args: { path: 'x' } })],
  ['didNotRun', (d) => d.didNotRun({ id: 'a', tool: 'read', args: { path: 'x' } })],
  ['waiting', (d) => d.waiting()],
  ['endTurn', (d) => d.endTurn()],
  ['freshStart', (d) => d.freshStart()],
  ['expectEveryOutcome', (d) => d.expectEveryOutcome()],
  ['subscribe', (d) => d.subscribe(() => {})],
  ['reportFalsePositive', (d) => d.reportFalsePositive()],
];

const options = (engine: 'wasm' | 'reference'): LoopDetectorOptions => ({ engine, detectors: { chanting: true, similarArgs: true } });

describe('a disposed session', () => {
  for (const engine of ['wasm', 'reference'] as const) {
    it.each(uses.map(([name, use]) => ({ name, use })))(`should refuse $name with a DisposedError (${engine})`, ({ use }) => {
      const d = new LoopDetector(options(engine));
      for (let i = 0; i < 12; i++) d.check(call(i));
      d.dispose();
      expect(() => use(d)).toThrow(DisposedError);
      expect(() => use(d)).toThrow(/this LoopDetector was disposed/);
    });

    it(`should keep its stats readable and be disposed twice without harm (${engine})`, () => {
      const d = new LoopDetector(options(engine));
      for (let i = 0; i < 12; i++) d.check(call(i));
      const stats = d.stats();
      d.dispose();
      d.dispose();
      expect(d.stats()).toEqual(stats);
    });

    it(`should hold the error in a batch's place, the other calls checked (${engine})`, () => {
      const gone = new LoopDetector(options(engine));
      const live = new LoopDetector(options(engine));
      gone.dispose();
      const out = LoopDetector.checkBatch([{ detector: live, event: call(0) }, { detector: gone, event: call(1) }, { detector: live, event: call(2) }]);
      expect(out[0]).toBeNull();
      expect(out[1]).toBeInstanceOf(DisposedError);
      expect(out[2]).toBeNull();
      live.dispose();
    });
  }

  it('should make no chanting region again for text after dispose', () => {
    const made = Array.from({ length: 64 }, () => new LoopDetector(options('wasm')));
    for (const d of made) d.dispose();
    const before = liveRegions();
    for (const d of made) expect(() => d.checkText('the same words again and again and again')).toThrow(DisposedError);
    expect(liveRegions()).toBe(before);
  });

  it('should be what an engine\'s ended and evicted sessions are: a new session of the same id starts afresh', () => {
    const engine = new LoopEngine({ engine: 'wasm', maxSessions: 2, detectors: { chanting: true, similarArgs: true } });
    for (let i = 0; i < 6; i++) engine.check('a', call(i));
    expect(engine.end('a')).toBe(true);
    for (const s of ['b', 'c', 'd']) for (let i = 0; i < 4; i++) engine.check(s, call(i));
    expect(engine.check('a', call(0))).toBeNull();
    engine.close();
  });
});
