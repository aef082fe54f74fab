/**
 * answersAgent (src/text/prompt-answer.ts): which prompts only answer the agent's own question (no fresh
 * start) and which give a new task; the text is capped before any pattern reads it.
 */
import { describe, expect, it } from 'vitest';
import { ANSWER_LOOK, ANSWER_WORDS, answersAgent } from '../src/text/prompt-answer.js';

describe('answersAgent', () => {
  it('should take a menu choice as an answer: a digit or two, one letter, bracketed or not, full-width too', () => {
    for (const p of ['2', '２', '12', 'B', 'c', '(b)', '3.', '1)', '[2]', 'option 2', ' 2\n']) expect(answersAgent(p), p).toBe(true);
  });

  it('should take a yes, an ok, a go-on as an answer, whatever its case and trailing punctuation', () => {
    for (const p of ['yes', 'Yes.', 'YES!', 'y', 'OK', 'okay', 'continue', 'go on', 'Go ahead', 'keep going', 'proceed', 'yes please', 'yes to all', 'お願いします。', 'はい', '好的', '继续']) expect(answersAgent(p), p).toBe(true);
    for (const w of ANSWER_WORDS) expect(answersAgent(w), w).toBe(true);
  });

  it('should take anything else as a new prompt: a task, an answer with more to it, a question', () => {
    for (const p of ['ok, deploy it', 'yes, and fix the docs too', 'fix it', 'run the tests', 'commit', 'Now look at step 1, please.', '1 + 2', '?', 'no', '', '   ', 'why?']) {
      expect(answersAgent(p), p).toBe(false);
    }
  });

  it('should read a message content of text parts (Claude Code blocks, Gemini CLI parts), and take one with an image as new', () => {
    expect(answersAgent([{ type: 'text', text: '2' }])).toBe(true);
    expect(answersAgent([{ text: 'yes' }])).toBe(true);
    expect(answersAgent([{ type: 'text', text: '2' }, { type: 'image', source: { type: 'base64', data: 'iVBOR' } }])).toBe(false);
    expect(answersAgent([{ inlineData: { mimeType: 'image/png', data: 'iVBOR' } }])).toBe(false);
    expect(answersAgent([])).toBe(false);
  });

  it('should take what is not a prompt text as a new prompt (a payload without one: the fresh start as before)', () => {
    for (const p of [undefined, null, 2, true, {}, { text: 'yes' }]) expect(answersAgent(p), String(p)).toBe(false);
  });

  it('should look at no more than ANSWER_LOOK characters: a longer prompt is new, however it starts, and costs nothing to tell', () => {
    expect(answersAgent(`yes${' '.repeat(ANSWER_LOOK)}`)).toBe(false);
    expect(answersAgent(`${'2'.padEnd(ANSWER_LOOK - 1)}.`)).toBe(true);
    expect(answersAgent(`yes ${'x'.repeat(20_000_000)}`)).toBe(false);
    // a message of a million one-letter parts: read only until its text is past ANSWER_LOOK (counted, not
    // timed: a part read is an index asked of the array)
    const parts = Array.from({ length: 1_000_000 }, () => ({ type: 'text', text: 'y' }));
    const read = new Set<number>();
    const counted = new Proxy(parts, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^[0-9]+$/.test(key)) read.add(Number(key));
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    expect(answersAgent(counted)).toBe(false);
    expect(read.size).toBeGreaterThan(0);
    expect(read.size).toBeLessThanOrEqual(ANSWER_LOOK / 2 + 2);
  });
});
