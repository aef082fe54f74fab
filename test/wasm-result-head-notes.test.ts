/**
 * The engine's module takes a harness's notes out of a result head in its pass over the call
 * (assembly/notes.ts) and reads what is left, as failure-report.ts's reportFrom did on the host
 * (`look.replace(NOTES, '')`, trim(), and reportScan of the rest): on random heads built from the notes in
 * every case, with ſ and the Kelvin sign for s and k (`/iu` folds them), cut notes, brackets, digits, Unicode
 * spaces (trim()'s and others), multi-byte and lone surrogates, the head word says whether a note was there,
 * whether the rest is blank and the rest's scan bits exactly as the host's twin gives them, and reportFrom
 * with the module's rest answers as reportFrom without it. Also on every result of the traces (skipped
 * without ../shared).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../src/options/resolve-options.js';
import { PASS_LOOK, reportFrom, withoutNotes } from '../src/text/failure-report.js';
import { restOf } from '../src/text/result-reading.js';
import { HEAD_NOTED, HEAD_READ, HEAD_REST_BLANK, HEAD_REST_SHIFT } from '../src/wasm/generated/abi.js';
import { reportScan } from '../src/wasm/module-report-scan.js';
import { WasmPipeline } from '../src/wasm/wasm-pipeline.js';
import { traceCalls, traceDir } from './helpers/traces.js';

const NOTES = [
  '[the command completed with exit code 0]', '[The command completed with exit code 12.]', '[Command finished with exit code 1]',
  '[Current working directory: /workspace/repo]', '[Python interpreter: /usr/bin/python3]', '(bash completed with no output)', '(powershell completed with no output)',
  '(completed with no output)', '[current working directory:\nmulti ]', '[python interpreter:]',
];
const BROKEN = [
  '[the command completed with exit code ]', '[the command completed with exit code 1.', '[command finished with exit code 1.]', '[current working directory: x',
  '(bash completed with no output', '(bash  completed with no output)', '(powershell completed with no output', '(powershel completed with no output)', '[ the command completed with exit code 0]', '(bash )', '[python interpreter', '[command finished with exit code',
];
const OTHER = [
  '[', ']', '(', ')', '.', '0', '7', ' ', '\n', '\t', '\r\n', '\v', '\f', '\u00a0', '\u1680', '\u2000', '\u200a', '\u200b', '\u2028', '\u2029', '\u202f', '\u205f',
  '\u3000', '\ufeff', '\u180e', '\u0085', 'error', '9 passed', 'ok', 'Finished', 'é', '日', '😀', '\ud800', '\udc00', 'ſ', '\u212a', 'x',
];

/** A note with each letter in a random case, s sometimes ſ and k sometimes the Kelvin sign (what `/iu` matches). */
const folded = fc.tuple(fc.constantFrom(...NOTES, ...BROKEN), fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 48, maxLength: 48 })).map(([n, ways]) =>
  [...n]
    .map((c, i) => {
      const w = ways[i % ways.length] as number;
      if (c === 's' && w === 3) return 'ſ';
      if (c === 'k' && w === 3) return '\u212a';
      return w === 1 ? c.toUpperCase() : c;
    })
    .join(''),
);
const piece = fc.oneof(fc.constantFrom(...NOTES), folded, fc.constantFrom(...OTHER), fc.string({ maxLength: 4 }), fc.string({ unit: 'binary', maxLength: 3 }));
/** Heads of pieces, short or near the cut at PASS_LOOK. */
const text = fc
  .tuple(fc.constantFrom(0, 0, 0, PASS_LOOK - 40), fc.constantFrom('x', ' ', 'é'), fc.array(piece, { maxLength: 14 }))
  .map(([n, fill, parts]) => `${fill.repeat(n)}${parts.join('')}`);

/** The head word's rest as the host's twin gives it: what the module should have written (0: no note there). */
function twinRest(head: string): number {
  const rest = withoutNotes(head);
  if (rest === head) return 0;
  if (rest.trim() === '') return HEAD_NOTED | HEAD_REST_BLANK;
  return HEAD_NOTED | (reportScan(rest) << HEAD_REST_SHIFT);
}

const REST_BITS = HEAD_NOTED | HEAD_REST_BLANK | (0xff << HEAD_REST_SHIFT);

/** Checks the module's reading of one result against the twin; whether the head held a note. */
function check(p: WasmPipeline, t: string): boolean {
  p.observe({ tool: 'Bash', args: { command: 'ls' }, result: t });
  const word = p.reading.word;
  const head = t.slice(0, PASS_LOOK);
  if ((word & HEAD_READ) === 0) return false;
  const scan = word & 0xff;
  expect(word & REST_BITS).toBe(twinRest(head));
  expect(reportFrom(head, scan, restOf(word))).toBe(reportFrom(head, scan));
  return (word & HEAD_NOTED) !== 0;
}

describe("the module's notes taken out of a result head", () => {
  it('should take out the notes and read the rest as the host does', () => {
    const p = new WasmPipeline(resolveOptions({}));
    let noted = 0;
    try {
      fc.assert(
        fc.property(text, (t) => {
          if (check(p, t)) noted++;
        }),
        { numRuns: 3000 },
      );
    } finally {
      p.dispose();
    }
    expect(noted).toBeGreaterThan(300);
  });

  it('should read notes with folded letters, blank rests and broken notes', () => {
    const p = new WasmPipeline(resolveOptions({}));
    const cases: [string, boolean][] = [
      ['[The Command Completed With Exit Code 0.]', true],
      ['[current working directory: /a]\n\u3000\ufeff', true],
      ['[Command finiſhed with exit code 3]', true],
      ['[current wor\u212aing directory: /a] 9 passed', true],
      ['(BASH completed with no output)', true],
      ['(PowerShell completed with no output)', true],
      ['(POWERſHELL completed with no output)', true],
      ['(PowerShell completed with no output', false],
      ['[command finished with exit code 3.]', false],
      ['[the command completed with exit code x]', false],
      ['(bash completed with no output', false],
      ['[current working directory: /a', false],
    ];
    for (const [t, has] of cases) expect(check(p, t)).toBe(has);
    // a rest of a space the trim() leaves (U+180E, U+200B): not blank
    expect(check(p, '[python interpreter: x]\u180e') && (p.reading.word & HEAD_REST_BLANK) === 0).toBe(true);
    expect(check(p, '\u200b(completed with no output)') && (p.reading.word & HEAD_REST_BLANK) === 0).toBe(true);
    expect(check(p, '\u2029(completed with no output)\u00a0') && (p.reading.word & HEAD_REST_BLANK) !== 0).toBe(true);
    p.dispose();
  });

  it.skipIf(traceDir === null)('should read every result of the traces as the host does', () => {
    const p = new WasmPipeline(resolveOptions({}));
    let noted = 0;
    for (const [, e] of traceCalls()) if (typeof e.result === 'string' && check(p, e.result)) noted++;
    p.dispose();
    expect(noted).toBeGreaterThan(1000);
  });
});
