import { describe, expect, it } from 'vitest';
import { LoopDetector, RESULT_REPEAT_DEFAULTS } from '../src/index.js';
import { RESULT_REPEAT_CONFIDENCE } from '../src/detectors/result-repeat.js';
import { fired, only, run } from './helpers/session.js';

const q = (query: string, result: string) => ({ tool: 'search', args: { query }, result });

describe('result repeat detector', () => {
  it(`should detect different calls producing the same result ${RESULT_REPEAT_DEFAULTS.threshold} times`, () => {
    const v = run(only('resultRepeat'), [q('flights to paris', 'No flights found.'), q('flights to paris cdg', 'No flights found.'), q('flights paris orly', 'No flights found.')]);
    expect(fired(v)).toEqual([2]);
    expect(v[2]!.kind).toBe('result_repeat');
    expect(v[2]!.repeatCount).toBe(3);
    expect(v[2]!.unit.map((c) => c.index)).toEqual([0, 1, 2]);
  });

  it('should count near-identical results: equal once volatile parts are masked', () => {
    const events = [q('a', 'Search returned 0 results for your query at 10:01:22'), q('b', 'Search returned 0 results for your query at 10:01:29'), q('c', 'Search returned 0 results for your query at 10:01:35')];
    expect(fired(run(only('resultRepeat'), events))).toEqual([2]);
    expect(fired(run(only('resultRepeat', { masked: false }), events))).toEqual([]);
  });

  it('should not count errors, empty results or calls without results', () => {
    const events = [
      { tool: 't', args: { i: 1 }, error: 'boom' },
      { tool: 't', args: { i: 2 }, error: 'boom' },
      { tool: 't', args: { i: 3 }, result: '' },
      { tool: 't', args: { i: 4 }, result: '  ' },
      { tool: 't', args: { i: 5 }, result: '' },
      { tool: 't', args: { i: 6 } },
      { tool: 't', args: { i: 7 } },
      { tool: 't', args: { i: 8 } },
    ];
    expect(fired(run(only('resultRepeat'), events))).toEqual([]);
  });

  it('should not fire on results that differ', () => {
    const events = Array.from({ length: 10 }, (_, i) => q(`city ${i}`, `Weather in city ${i}: ${10 + i}°C, ${['sunny', 'rain', 'fog'][i % 3]}, wind ${i * 3} km/h from the ${['north', 'south'][i % 2]}`));
    expect(fired(run(only('resultRepeat'), events))).toEqual([]);
  });

  it('should be too weak to fire alone under the default policy (identical acknowledgements are normal)', () => {
    const edits = ['src/a.ts', 'lib/b.ts', 'test/c.ts', 'docs/d.md'].map((path) => ({ tool: 'write_file', args: { path, content: `// ${path}\nexport {};\n` }, result: 'OK' }));
    expect(fired(run(new LoopDetector({ detectors: { exactRepeat: false, frequency: false, cycle: false, semantic: false, similarArgs: false, deadEnd: false, stateRepeat: false, chanting: false } }), edits))).toEqual([]);
    expect(RESULT_REPEAT_CONFIDENCE).toBeLessThan(0.5);
  });
});
