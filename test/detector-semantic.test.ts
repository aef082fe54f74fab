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

  it('should estimate Jaccard from bottom-k sketches: exact for small sets, within the error bound for large ones', () => {
    const words = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `word${from + i}x`).join(' ');
    const small = [tokens('alpha beta gamma delta'), tokens('alpha beta gamma epsilon')];
    expect(jaccardSketch(small[0]!.slice(0, 16), 4, small[1]!.slice(0, 16), 4, 16)).toBe(jaccard(small[0]!, small[1]!));
    let worst = 0;
    for (let shift = 0; shift <= 200; shift += 10) {
      const a = tokens(words(0, 200));
      const b = tokens(words(shift, 200 + shift));
      const exact = jaccard(a, b);
      const est = jaccardSketch(a.slice(0, 16), a.length, b.slice(0, 16), b.length, 16);
      worst = Math.max(worst, Math.abs(est - exact));
    }
    // one standard error at k = 16 is at most 0.125; four of them bound every estimate here
    expect(worst).toBeLessThanOrEqual(0.5);
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
