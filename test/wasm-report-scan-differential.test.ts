/**
 * The module's scan of an output sixteen bytes at a time (assembly/report-scan.ts's reportScan: lanes classed
 * by their byte pair, only the lanes that may begin a check looked at, stopping once every bit it can set is
 * set) gives exactly the bits of its reference twin, which looks at every byte (report-scan-bytewise.ts):
 * random texts of the patterns' pieces at every offset in a block (a piece cut at a block's edge, at the
 * text's end, at its start), multi-byte characters and cross marks, then every result head of the real
 * traces (skipped without ../shared).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PASS_LOOK } from '../src/text/failure-report.js';
import { reportScan, reportScanBytewise } from '../src/wasm/module-report-scan.js';
import { WasmInstance } from '../src/wasm/wasm-module.js';
import { traceCalls, traceDir } from './helpers/traces.js';

const PIECES = [
  '9 passed', '12 passing', '0 errors', '0 failure', 'x0 errors', 'all tests passed', 'ALL 3 CHECKS OK', 'build succeeded', 'Build complete', 'compiled', 'Finished',
  'no issues', 'No warnings', 'nothing to commit', 'ok', 'OK', 'test result: ok', 'success', 'SUCCEEDED', 'successfully', 'up-to-date', 'up to date', 'working tree clean',
  'error', 'Exception', 'FAIL', 'fatal', 'panic', 'Traceback', 'TRACEBAC\u212A', '❌', '✗', '✘', '✓', '\u2713', '[the command', '[Python', '[current', '(bash', '(completed',
  'al', 'bu', 'co', 'fi', 'no', 'su', 'te', 'up', 'wo', 'er', 'ex', 'fa', 'pa', 'tr', '[', '(', '_', '-', '.', '\n', ' ', '\t', '\u00a0', '\u3000', 'é', '日', '😀', '7',
  'Done', 'set', 'updated', 'okay', 'Plan updated', '42updated',
];
const piece = fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 5 }), fc.string({ unit: 'grapheme', maxLength: 2 }));
/** Texts with a run of filler first, so every piece lands at every offset of a sixteen-byte block. */
const text = fc
  .tuple(fc.integer({ min: 0, max: 40 }), fc.constantFrom('x', ' ', 'a', '\n', 'é'), fc.array(piece, { maxLength: 30 }))
  .map(([n, fill, parts]) => `${fill.repeat(n)}${parts.join('')}`);

describe('the module scan of an output, sixteen bytes at a time', () => {
  it('should give the bits of the scan that looks at every byte, asked for the acknowledgement or not', () => {
    fc.assert(
      fc.property(text, fc.boolean(), (t, ack) => reportScan(t, ack) === reportScanBytewise(t, ack)),
      { numRuns: 20_000 },
    );
  });

  it('should find a pass, a stem and a note that begin at any lane, or end at the text', () => {
    for (const p of ['9 passed', 'all tests ok', 'error', 'fail', '❌', '[the command completed with exit code 0]', '(completed with no output)', 'ok', 'working tree clean']) {
      for (let n = 0; n < 40; n++) {
        for (const t of [`${'x '.repeat(n)}${p}`, `${'-'.repeat(n)}${p}${'-'.repeat(n)}`, `${'é'.repeat(n)}${p}`]) {
          expect(reportScan(t), t).toBe(reportScanBytewise(t));
          expect(reportScan(t, true), t).toBe(reportScanBytewise(t, true));
        }
      }
    }
    expect(reportScan('x'.repeat(15) + 'ok') & 1).toBe(0); // "xok": not at a word start
    expect(reportScan('x'.repeat(15) + ' ok') & 1).toBe(0); // not at a line start either
    expect(reportScan('x'.repeat(15) + '\nok') & 1).toBe(1);
    expect(reportScan('')).toBe(0);
  });

  it('should read nothing of the bytes before the text or after its end', () => {
    // word bytes on both sides: a text that starts with "ok" is at a word start; one that ends "9 pass" is no pass
    const inst = new WasmInstance();
    const at = inst.exports.reserveBytes(4096);
    for (const [t, want] of [['ok', 1], ['9 passed', 1], ['Finished', 1], ['9 pass', 0], ['x ok', 0], ['erro', 0], ['[', 0]] as const) {
      for (let n = 0; n < 20; n++) {
        const body = Buffer.from(`${'-'.repeat(n)}${t}`);
        const u8 = inst.views().u8;
        u8.fill(0x65, at, at + 4096); // 'e', then "rror" after the end: a stem, were the end not the end
        u8.set(Buffer.from('rror'), at + 1 + body.length);
        u8[at] = 0x78;
        u8.set(body, at + 1);
        const fast = inst.exports.reportScan(at + 1, body.length, 1);
        expect(fast, `${n} ${t}`).toBe(inst.exports.reportScanBytewise(at + 1, body.length, 1));
        expect(fast & 1, `${n} ${t}`).toBe(n === 0 ? want : t === 'ok' || t === 'Finished' ? 0 : want);
        expect(fast & 4).toBe(0);
      }
    }
  });

  it.skipIf(traceDir === null)('should give the same bits on every result head of the real traces', () => {
    let heads = 0;
    for (const [, e] of traceCalls()) {
      if (typeof e.result !== 'string') continue;
      const h = e.result.slice(0, PASS_LOOK);
      const ack = h.length <= 1024;
      expect(reportScan(h, ack)).toBe(reportScanBytewise(h, ack));
      heads++;
    }
    expect(heads).toBeGreaterThan(20_000);
  });
});
