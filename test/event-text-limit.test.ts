/**
 * Agent text is read up to TEXT_LIMIT characters (issue 13, item 7: a 1 MB `text` cost about a second per
 * call, 10 MB up to a minute): an event's `text` when the event is read (both engines, LoopEngine, the
 * pool, custom detectors) and each `checkText` piece. Costs are this process's CPU time (other processes on
 * a busy machine do not count), the least of three runs.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector, LoopEngine, TEXT_LIMIT } from '../src/index.js';
import type { Detector, LoopSignal, ObservedCall, ToolEvent, Verdict } from '../src/index.js';
import { ALL_OFF } from './helpers/session.js';

const chanting = (engine: 'wasm' | 'reference') => new LoopDetector({ engine, detectors: { ...ALL_OFF, chanting: true }, policy: { ladder: ['warn'], minConfidence: 0 } });
const fill = (unit: string, n: number): string => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
/** Prose that never repeats itself: numbered sentences. */
const prose = (n: number): string => {
  let s = '';
  for (let i = 0; s.length < n; i++) s += `Step ${i} reads file number ${i * 7919} and notes what it found. `;
  return s.slice(0, n);
};
const CHANT = 'I will run the tests once more to be sure. '.repeat(20);

function cpuMs(fn: () => unknown): number {
  const t: number[] = [];
  for (let r = 0; r < 3; r++) {
    const c0 = process.cpuUsage();
    fn();
    const c = process.cpuUsage(c0);
    t.push((c.user + c.system) / 1000);
  }
  return Math.min(...t);
}

describe('event text limit', () => {
  for (const engine of ['wasm', 'reference'] as const) {
    it(`should see a chant within the first TEXT_LIMIT characters of a text and not one past them (${engine})`, () => {
      const before = prose(TEXT_LIMIT - CHANT.length - 100);
      const within = chanting(engine).check({ tool: 'think', args: {}, text: before + CHANT + prose(TEXT_LIMIT) });
      expect(within?.kind).toBe('chanting');
      const past = chanting(engine).check({ tool: 'think', args: {}, text: prose(TEXT_LIMIT + 10) + CHANT });
      expect(past).toBeNull();
    });

    it(`should give the verdicts a text cut to TEXT_LIMIT characters gives, for calls and streamed pieces (${engine})`, () => {
      const long = prose(TEXT_LIMIT - 500) + CHANT + 'x'.repeat(3 * TEXT_LIMIT);
      const cut = long.slice(0, TEXT_LIMIT);
      const strip = (v: Verdict | null) => v && { kind: v.kind, chunk: v.chunk, pattern: v.pattern, repeatCount: v.repeatCount };
      const calls = (text: string) => {
        const d = chanting(engine);
        return [d.check({ tool: 'think', args: {}, text }), d.check({ tool: 'think', args: { n: 1 }, text })].map(strip);
      };
      expect(calls(long)).toEqual(calls(cut));
      expect(calls(long)[0]).not.toBeNull();
      const pieces = (text: string) => {
        const d = chanting(engine);
        return [d.checkText(text), d.checkText(text)].map(strip);
      };
      expect(pieces(long)).toEqual(pieces(cut));
    });
  }

  it('should hand custom detectors the text cut to TEXT_LIMIT characters, never splitting a surrogate pair', () => {
    const seen: (string | undefined)[] = [];
    const spy: Detector = {
      name: 'spy',
      record: (call: ObservedCall) => void seen.push(call.event.text),
      check: (): LoopSignal | null => null,
      reset: () => undefined,
    };
    const d = new LoopDetector({ engine: 'reference', detectors: ALL_OFF, custom: [spy] });
    d.check({ tool: 't', args: {}, text: 'a'.repeat(TEXT_LIMIT + 5) });
    d.check({ tool: 't', args: {}, text: 'a'.repeat(TEXT_LIMIT - 1) + '😀' });
    d.check({ tool: 't', args: {}, text: 'short' });
    expect(seen[0]).toBe('a'.repeat(TEXT_LIMIT));
    expect(seen[1]).toBe('a'.repeat(TEXT_LIMIT - 1));
    expect(seen[2]).toBe('short');
  });

  describe('cost per call', () => {
    const shapes: Record<string, (n: number) => string> = {
      'one character': (n) => fill('x', n),
      'white space': (n) => fill(' ', n),
      'short lines': (n) => fill('abc def ghi\n', n),
      'one long line of dashes': (n) => fill('-', n),
      prose,
    };
    const MB = 1024 * 1024;
    type Run = (text: string) => unknown;
    const runners: Record<string, () => Run> = {
      'LoopDetector (wasm)': () => {
        let i = 0;
        const d = chanting('wasm');
        return (text) => d.check({ tool: 't', args: { i: i++ }, text });
      },
      'LoopDetector (reference)': () => {
        let i = 0;
        const d = chanting('reference');
        return (text) => d.check({ tool: 't', args: { i: i++ }, text });
      },
      'LoopEngine.check': () => {
        let i = 0;
        const e = new LoopEngine({ detectors: { ...ALL_OFF, chanting: true } });
        return (text) => e.check('s', { tool: 't', args: { i: i++ }, text } as ToolEvent);
      },
      'LoopDetector.checkText': () => {
        const d = chanting('wasm');
        return (text) => d.checkText(text);
      },
    };
    for (const [runner, make] of Object.entries(runners)) {
      for (const [name, shape] of Object.entries(shapes)) {
        it(`should cost no more for 4 MB of ${name} than for 128 KB (${runner})`, () => {
          const small = shape(MB / 8);
          const large = shape(4 * MB);
          large.charCodeAt(large.length - 1);
          const run = make();
          const s = cpuMs(() => run(small));
          const l = cpuMs(() => run(large));
          expect(l, `4 MB: ${l.toFixed(1)} ms, 128 KB: ${s.toFixed(1)} ms`).toBeLessThan(2 * Math.max(s, 1) + 5);
        });
      }
    }
  });
});
