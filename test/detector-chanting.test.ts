import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChantingDetector } from '../src/detectors/chanting.js';
import { CHANTING_DEFAULTS } from '../src/index.js';
import type { ObservedCall } from '../src/index.js';
import { fired, only, run } from './helpers/session.js';

const say = (text: string) => ({ tool: 'think', args: {}, text });

describe('chanting detector', () => {
  it(`should detect a sentence repeated ${CHANTING_DEFAULTS.threshold} times back to back in one text`, () => {
    const sentence = 'Let me try running the tests again. ';
    const text = sentence.repeat(CHANTING_DEFAULTS.threshold + 2);
    const v = run(only('chanting'), [say('I will start by reading the file.'), say(text)]);
    expect(fired(v)).toEqual([1]);
    expect(v[1]!.kind).toBe('chanting');
    // the repeated unit is the sentence, seen from wherever the repetition was confirmed (a rotation)
    expect(v[1]!.chunk).toHaveLength(sentence.length);
    expect((sentence + sentence).includes(v[1]!.chunk!)).toBe(true);
    expect(v[1]!.repeatCount).toBeGreaterThanOrEqual(CHANTING_DEFAULTS.threshold);
  });

  it('should detect chanting across calls and streamed pieces', () => {
    const d = only('chanting');
    const verdicts = [];
    for (let i = 0; i < 14; i++) verdicts.push(d.check(say('I need to check the configuration file now.')));
    expect(fired(verdicts).length).toBeGreaterThan(0);
    const s = only('chanting');
    let hit = null;
    for (let i = 0; i < 30 && hit === null; i++) hit = s.checkText('the answer is forty two and ');
    expect(hit?.kind).toBe('chanting');
  });

  it('should not fire on code blocks, tables, lists, headings or dividers', () => {
    const code = '```\n' + 'print("hello world from the loop body")\n'.repeat(20) + '```\n';
    const table = '| name | value | unit |\n'.repeat(20);
    const list = '- check the configuration file again\n'.repeat(20);
    const heading = '## Results of the run\n'.repeat(20);
    const divider = '----------\n'.repeat(20);
    expect(fired(run(only('chanting'), [say(code), say(table), say(list), say(heading), say(divider)]))).toEqual([]);
  });

  it('should not fire on ordinary prose or on short repeated runs', () => {
    const prose = 'The function parses the header, then validates each field against the schema. If a field is missing, it falls back to the default. Errors are collected and reported together at the end, so the caller sees every problem at once.';
    expect(fired(run(only('chanting'), [say(prose), say(prose.split('').reverse().join(''))]))).toEqual([]);
    expect(fired(run(only('chanting'), [say('hahahahahaha that is funny'), say('.....................')]))).toEqual([]);
  });

  it('should give the same signals when its stream positions are rebased often', () => {
    const piece = fc.oneof(
      fc.constantFrom('Let me try again. ', 'the answer is 42 and ', 'é😀', '- item\n', '```\n', '| a | b |\n', 'Retrying the build now.\n', '\n'),
      fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 40 })).map(([t, n]) => t.repeat(n)),
    );
    const options = fc.record({ maxPeriod: fc.integer({ min: 1, max: 64 }), threshold: fc.integer({ min: 2, max: 12 }), minLength: fc.integer({ min: 2, max: 120 }), longChunk: fc.integer({ min: 1, max: 64 }), longRepetitions: fc.integer({ min: 2, max: 12 }) });
    const call = (index: number, text: string) => ({ index, event: { tool: 't', text } }) as unknown as ObservedCall;
    let hits = 0;
    fc.assert(
      fc.property(options, fc.array(fc.tuple(fc.array(piece, { maxLength: 6 }), fc.boolean()), { minLength: 1, maxLength: 12 }), (o, calls) => {
        const plain = new ChantingDetector(o);
        const rebased = new ChantingDetector(o, 300);
        calls.forEach(([pieces, streamed], index) => {
          if (streamed) {
            for (const p of pieces) {
              plain.recordText(p, index);
              rebased.recordText(p, index);
              expect(rebased.check()).toEqual(plain.check());
            }
          } else {
            plain.record(call(index, pieces.join('')));
            rebased.record(call(index, pieces.join('')));
            const s = plain.check();
            if (s !== null) hits++;
            expect(rebased.check()).toEqual(s);
          }
        });
      }),
      { numRuns: 300 },
    );
    expect(hits).toBeGreaterThan(20);
  });
});
