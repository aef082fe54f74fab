import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEMANTIC_DEFAULTS } from '../src/index.js';
import { jaccardExact, jaccardSketch, tokenSet } from '../src/text/token-set.js';
import { fired, only, run } from './helpers/session.js';

const search = (query: string, extra: object = {}) => ({ tool: 'web_search', args: { query }, ...extra });

function tokens(text: string): Uint32Array {
  const b = new TextEncoder().encode(text);
  return tokenSet(b, b.length, 256).hashes;
}
const jaccard = jaccardExact;

describe('semantic repeat detector', () => {
  it('should tokenise as documented: lowercase, split on non-alphanumerics, drop stop words and short tokens', () => {
    expect(tokens('The QUICK brown-fox, of the lazy dog').length).toBe(5); // quick brown fox lazy dog
    expect(jaccard(tokens('Find the config file'), tokens('find CONFIG file'))).toBe(1);
    expect(jaccard(tokens('a b c'), tokens('a b c'))).toBe(0); // no tokens left: never similar
    expect(jaccard(tokens('alpha beta gamma delta'), tokens('alpha beta gamma epsilon'))).toBeCloseTo(3 / 5);
  });

  it('should compute Jaccard exactly from sketches when both sets fit in k', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(60), { maxLength: 24 }), fc.uniqueArray(fc.nat(60), { maxLength: 24 }), (x, y) => {
        const a = tokens(x.map((n) => `tok${n}x`).join(' '));
        const b = tokens(y.map((n) => `tok${n}x`).join(' '));
        expect(jaccardSketch(a, a.length, b, b.length, 24)).toBe(jaccard(a, b));
      }),
      { numRuns: 300 },
    );
  });

  it('should estimate Jaccard of large sets within the documented error: SE = sqrt(J (1 - J) / k)', () => {
    const k = SEMANTIC_DEFAULTS.sketchSize;
    const words = (tag: number, from: number, to: number) => Array.from({ length: to - from }, (_, i) => `w${tag}q${from + i}`).join(' ');
    // sets of 100 tokens sharing `shared` of them: J = shared / (200 - shared)
    for (const shared of [40, 67, 79, 89]) {
      const j = shared / (200 - shared);
      const se = Math.sqrt((j * (1 - j)) / k);
      let sum = 0;
      let outside = 0;
      const trials = 400;
      for (let t = 0; t < trials; t++) {
        const a = tokens(words(t, 0, 100));
        const b = tokens(words(t, 100 - shared, 200 - shared));
        expect(jaccard(a, b)).toBeCloseTo(j, 10);
        const est = jaccardSketch(a.slice(0, k), a.length, b.slice(0, k), b.length, k);
        sum += est - j;
        if (Math.abs(est - j) > 3 * se) outside++;
      }
      // unbiased, and as often beyond three standard errors as a normal estimate would be (0.3%), with slack
      expect(Math.abs(sum / trials), `bias at J=${j.toFixed(2)}`).toBeLessThan(0.02);
      expect(outside / trials, `beyond 3 SE at J=${j.toFixed(2)}`).toBeLessThanOrEqual(0.015);
    }
  });

  it(`should detect paraphrases once ${SEMANTIC_DEFAULTS.minSimilar} earlier actions reach ${SEMANTIC_DEFAULTS.threshold}`, () => {
    const events = [
      search('python asyncio event loop closed error fix'),
      search('fix python asyncio error event loop is closed'),
      search('asyncio event loop closed error python how to fix'),
    ];
    const v = run(only('semantic'), events);
    expect(fired(v)).toEqual([2]);
    expect(v[2]!.kind).toBe('semantic');
    expect(v[2]!.repeatCount).toBe(3);
    expect(v[2]!.loopStart).toBe(0);
  });

  it('should not fire on different questions', () => {
    const events = [search('python asyncio event loop'), search('rust borrow checker lifetimes'), search('postgres vacuum full locking'), search('kubernetes pod eviction policy')];
    expect(fired(run(only('semantic'), events))).toEqual([]);
  });

  it('should use the description instead of the args when given', () => {
    const events = [0, 1, 2].map((i) => ({ tool: 'code_write', args: { blob: `x${i}` }, description: 'Writing the user model class' }));
    expect(fired(run(only('semantic'), events))).toEqual([2]);
  });

  it('should compare only actions of the same tool by default, and any actions with sameTool false', () => {
    const events = [
      { tool: 'search_docs', args: { q: 'reset password email template' } },
      { tool: 'search_code', args: { q: 'reset password email template' } },
      { tool: 'search_tickets', args: { q: 'reset password email template' } },
    ];
    expect(fired(run(only('semantic'), events))).toEqual([]);
    expect(fired(run(only('semantic', { sameTool: false }), events))).toEqual([2]);
  });

  it.each(['wasm', 'reference'] as const)('should leave the tool name out of the action text with includeTool false (%s engine)', (engine) => {
    // the same three-word description through three tools: 3 of 5 tokens shared with the tool names in
    const events = ['websearch', 'kblookup', 'newsfeed'].map((tool) => ({ tool, description: 'pixel release date' }));
    expect(fired(run(only('semantic', { sameTool: false }, { engine }), events))).toEqual([]);
    expect(fired(run(only('semantic', { sameTool: false, includeTool: false }, { engine }), events))).toEqual([2]);
  });

  it('should not compare actions too short to be paraphrases', () => {
    const events = [{ tool: 'rm', args: { p: 'report.txt', force: false } }, { tool: 'rm', args: { p: 'report.txt', force: true } }, { tool: 'rm', args: { p: 'report.txt', recursive: true } }];
    expect(fired(run(only('semantic'), events))).toEqual([]);
    expect(fired(run(only('semantic', { minTokens: 1 }), events))).toEqual([2]);
  });

  it('should stay silent when the paraphrases keep getting new results (default policy)', () => {
    const events = [0, 1, 2, 3].map((i) => search('python asyncio event loop closed error fix', { result: `page ${i} of results: ...${i}` }));
    expect(fired(run(only('semantic', true, { policy: { progress: 'suppress' } }), events))).toEqual([]);
  });

  it('should fire when paraphrased retries keep failing the same way', () => {
    const events = [
      search('python asyncio event loop closed error fix', { error: 'No results for "python asyncio event loop closed error fix"' }),
      search('fix python asyncio error event loop is closed', { error: 'No results for "fix python asyncio error event loop is closed"' }),
      search('asyncio event loop closed error python how to fix', { error: 'No results for "asyncio event loop closed error python how to fix"' }),
    ];
    const v = run(only('semantic', true, { policy: { progress: 'suppress' } }), events);
    expect(fired(v)).toEqual([2]);
    expect(v[2]!.progress).toBe('stalled');
  });
});
