import { describe, expect, it } from 'vitest';
import { SIMILAR_ARGS_DEFAULTS } from '../src/index.js';
import { argsSimilarity, replacesWholeWord } from '../src/text/args-similarity.js';
import { fired, only, run } from './helpers/session.js';

const grep = (pattern: string, extra: object = {}) => ({ tool: 'grep', args: { pattern, path: 'src/' }, ...extra });
/** Misspelled retries of one search, as many as the default threshold (4 in the shipped default, 3 hand-tuned). */
const RETRIES = ['handleSubmitForm', 'handleSubmitFrom', 'handleSubmtForm', 'handleSubmitFom', 'handelSubmitForm'].slice(0, SIMILAR_ARGS_DEFAULTS.threshold);
const AT = SIMILAR_ARGS_DEFAULTS.threshold - 1;

describe('similar arguments detector', () => {
  it('should score similarity per field and by structure', () => {
    expect(argsSimilarity('foo', 'fo0', 0.8)).toBeCloseTo(2 / 3);
    expect(argsSimilarity({ a: 'x', b: 'y' }, { b: 'y', a: 'x' }, 0.8)).toBe(1);
    expect(argsSimilarity({ a: 'x', b: 'y' }, { a: 'x', b: 'z' }, 0.8)).toBe(0.5);
    expect(argsSimilarity({ a: 'x' }, { a: 'x', b: 1 }, 0.8)).toBe(0.5);
    expect(argsSimilarity([1, 2], [1, 2, 3], 0.8)).toBe(0);
    expect(argsSimilarity({ n: 1 }, { n: 1.0 }, 0.8)).toBe(1);
  });

  it('should tell a variant of a word from another word', () => {
    expect(replacesWholeWord('foo', 'fo0')).toBe(false);
    expect(replacesWholeWord('Is Google Making Us Stoopid?', 'Is Google Making Us Stupid?')).toBe(false);
    expect(replacesWholeWord('cat src/basic.py', 'cat src/core.py')).toBe(true);
    expect(replacesWholeWord('ls /repo/src', 'ls /repo/src/pkg')).toBe(true);
    expect(replacesWholeWord('page 1', 'page 2')).toBe(true);
  });

  it(`should detect foo / fo0 / f00 retries (${SIMILAR_ARGS_DEFAULTS.threshold} similar calls)`, () => {
    expect(SIMILAR_ARGS_DEFAULTS.threshold).toBe(4);
    const v = run(only('similarArgs'), RETRIES.map((p) => grep(p)));
    expect(fired(v)).toEqual([AT]);
    expect(v[AT]!.kind).toBe('similar_args');
    expect(v[AT]!.repeatCount).toBe(SIMILAR_ARGS_DEFAULTS.threshold);
    // the hand-tuned value: the third retry
    const hand = run(only('similarArgs', { threshold: 3 }), RETRIES.slice(0, 3).map((p) => grep(p)));
    expect(fired(hand)).toEqual([2]);
  });

  it('should not fire across different tools or on different targets', () => {
    const tools = [{ tool: 'grep', args: { pattern: 'handleSubmitForm' } }, { tool: 'rg', args: { pattern: 'handleSubmitForm' } }, { tool: 'ag', args: { pattern: 'handleSubmitForm' } }];
    expect(fired(run(only('similarArgs'), tools))).toEqual([]);
    const files = ['basic.py', 'core.py', 'fixedwidth.py', 'html.py'].map((f) => ({ tool: 'bash', args: { command: `cat astropy/io/ascii/${f}` } }));
    expect(fired(run(only('similarArgs'), files))).toEqual([]);
  });

  it('should not fire on paginated reads', () => {
    const pages = [0, 100, 200, 300, 400].map((offset) => ({ tool: 'read_file', args: { path: 'big.log', offset, limit: 100 } }));
    expect(fired(run(only('similarArgs'), pages))).toEqual([]);
  });

  it('should stay silent when the variants get new results (default policy)', () => {
    const events = RETRIES.map((p, i) => grep(p, { result: `${i + 1} matches` }));
    expect(fired(run(only('similarArgs', true, { policy: { progress: 'suppress' } }), events))).toEqual([]);
  });

  it('should fire when the variants all come back empty-handed', () => {
    const events = RETRIES.map((p) => grep(p, { result: 'No matches found.' }));
    expect(fired(run(only('similarArgs', true, { policy: { progress: 'suppress' } }), events))).toEqual([AT]);
  });
});
