/**
 * Chanting beyond one line: text streamed without line breaks, a closing code fence with no line break
 * after it, long phrases said a few times over, and a long sentence said again with other text between,
 * in one message or across messages; with the legitimately repetitive text that must stay quiet (tables,
 * logs, lists, code, the same short narration from turn to turn). Both engines (the detector is shared;
 * the pipelines around it are not).
 */
import { describe, expect, it } from 'vitest';
import { ENGINES, type Engine } from './helpers/verdicts.js';
import { CHANTING_DEFAULTS, LoopDetector } from '../src/index.js';
import type { Verdict } from '../src/index.js';

const chantingOnly = { exactRepeat: false, frequency: false, cycle: false, semantic: false, similarArgs: false, resultRepeat: false, deadEnd: false, stateRepeat: false, chanting: true } as const;

function detector(engine: Engine): LoopDetector {
  return new LoopDetector({ engine, detectors: chantingOnly, policy: { ladder: ['warn'] } });
}

/** The 1-based index of the first piece streamed through checkText that got a verdict, or 0. */
function firstStreamed(pieces: readonly string[], engine: Engine): number {
  const d = detector(engine);
  try {
    const k = pieces.findIndex((p) => d.checkText(p) !== null);
    return k + 1;
  } finally {
    d.dispose();
  }
}

/** The 1-based index of the first call whose text got a verdict, or 0. */
function firstSaid(texts: readonly string[], engine: Engine): number {
  const d = detector(engine);
  try {
    const k = texts.findIndex((text, i) => d.check({ tool: 'reply', args: { turn: i }, text }) !== null);
    return k + 1;
  } finally {
    d.dispose();
  }
}

const PHRASE = 'The build is still failing because the configuration file cannot be found in the expected location, so I will check the path again now.';

describe.each(ENGINES)('chanting in streamed and long text (%s engine)', (engine) => {
  it('should catch a short sentence chanted in one streamed piece without a line break, and in pieces', () => {
    expect(firstStreamed(['I will wait. '.repeat(12)], engine)).toBe(1);
    expect(firstStreamed(Array.from({ length: 12 }, () => 'I will wait. '), engine)).toBeGreaterThan(0);
  });

  it('should read the text after a closing code fence with no line break after it as prose', () => {
    const pieces = ['Here is the fix:\n```python\nx = compute(1)\n```', ...Array.from({ length: 12 }, () => 'I will wait. ')];
    expect(firstStreamed(pieces, engine)).toBeGreaterThan(0);
    // an opening fence streamed without its line break still opens a block
    expect(firstStreamed(['```', 'python\n', ...Array.from({ length: 12 }, () => 'print("I will wait")\n'), '```\n'], engine)).toBe(0);
  });

  it(`should catch a long phrase at its ${CHANTING_DEFAULTS.longRepetitions}rd repetition in one piece, one later across messages`, () => {
    expect(PHRASE.length).toBeGreaterThanOrEqual(CHANTING_DEFAULTS.longChunk);
    expect(firstStreamed([`${PHRASE} `.repeat(6)], engine)).toBe(1);
    const d = detector(engine);
    const said = d.checkText(`${PHRASE} `.repeat(CHANTING_DEFAULTS.longRepetitions));
    expect(said?.repeatCount).toBe(CHANTING_DEFAULTS.longRepetitions);
    d.dispose();
    expect(firstSaid(Array.from({ length: 6 }, () => PHRASE), engine)).toBe(CHANTING_DEFAULTS.longRepetitions + 1);
    expect(firstStreamed(Array.from({ length: 6 }, () => `${PHRASE} `), engine)).toBe(CHANTING_DEFAULTS.longRepetitions + 1);
  });

  it('should catch a long sentence said again with other text between, sooner inside one message than across messages', () => {
    const between = ['Let me look at the logs first.', 'The logs show a missing key.', 'Maybe the key is in another file.', 'I should compare the two files.'];
    const oneMessage = [0, 1, 2].map((k) => `${PHRASE} ${between[k]}`).join(' ');
    expect(firstStreamed([oneMessage + '\n'], engine)).toBe(1);
    const messages = [0, 1, 2, 3].map((k) => `${PHRASE} ${between[k]}`);
    expect(firstSaid(messages, engine)).toBe(CHANTING_DEFAULTS.longRepetitions + 1);
  });

  it('should stay quiet on repeated tables, logs, lists and code, and on short narration repeated from turn to turn', () => {
    const table = '| step | status | duration |\n'.repeat(12);
    const log = '2024-05-01 10:00:00 INFO retrying the connection to the database server after a timeout\n'.repeat(6) + 'WARN the connection pool is exhausted and new requests are being queued for later\n'.repeat(6);
    const list = '- check the configuration file again and confirm that the path is the expected one\n'.repeat(6);
    const code = '```\n' + 'logger.info("retrying the connection to the database server after a timeout")\n'.repeat(6) + '```\n';
    expect(firstStreamed([table, log, list, code], engine)).toBe(0);
    const narration = ['The changes look good. Let us run the test script again to check:', 'Let us try another approach to the parser.', 'The changes look good. Let us run the test script again to check:', 'Let us handle negative numbers too.', 'The changes look good. Let us run the test script again to check:'];
    expect(firstSaid(narration, engine)).toBe(0);
  });

  it('should stay quiet on ordinary prose streamed without line breaks', () => {
    const prose = 'The function parses the header, then validates each field against the schema. If a field is missing, it falls back to the default. Errors are collected and reported together at the end. ';
    expect(firstStreamed(prose.match(/.{1,17}/g) as string[], engine)).toBe(0);
  });
});

describe('a chanting detector in a snapshot', () => {
  it('should resume the sentence tracker where it was', () => {
    const texts = [PHRASE, 'Something else entirely, to keep the sentences apart.', PHRASE, 'Another different remark about the logs.', PHRASE, PHRASE];
    const whole = new LoopDetector();
    const expected = texts.map((text, i) => JSON.stringify(whole.check({ tool: 'reply', args: { turn: i }, text })));
    const first = new LoopDetector();
    const got = texts.slice(0, 3).map((text, i) => JSON.stringify(first.check({ tool: 'reply', args: { turn: i }, text })));
    const second = new LoopDetector();
    second.restore(first.snapshot());
    texts.slice(3).forEach((text, i) => got.push(JSON.stringify(second.check({ tool: 'reply', args: { turn: i + 3 }, text }))));
    expect(got).toEqual(expected);
    expect(expected.some((v) => (JSON.parse(v) as Verdict | null)?.kind === 'chanting')).toBe(true);
    for (const d of [whole, first, second]) d.dispose();
  });

  it('should resume a sentence cut by the snapshot mid-way, its shown text whole', () => {
    const said = `${PHRASE} Then something else. ${PHRASE} More words here. ${PHRASE} And again. ${PHRASE} `;
    const pieces = said.match(/.{1,23}/gs) as string[];
    const whole = detector('wasm');
    const expected = pieces.map((p) => JSON.stringify(whole.checkText(p)));
    const cut = pieces.findIndex((_, k) => pieces.slice(0, k + 1).join('').length > said.lastIndexOf(PHRASE) + 40);
    const first = detector('wasm');
    const got = pieces.slice(0, cut + 1).map((p) => JSON.stringify(first.checkText(p)));
    const second = detector('wasm');
    second.restore(first.snapshot());
    for (const p of pieces.slice(cut + 1)) got.push(JSON.stringify(second.checkText(p)));
    expect(got).toEqual(expected);
    expect(expected.filter((v) => v.includes(PHRASE.slice(0, 60).toLowerCase()))).toHaveLength(1);
    for (const d of [whole, first, second]) d.dispose();
  });
});
