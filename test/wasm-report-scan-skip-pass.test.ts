/**
 * The module's scan of an output asked to skip the pass patterns (SKIP_PASS: a session that reads no pass,
 * src/policy/facts-read.ts) gives every bit the whole scan gives but SCAN_PASS and SCAN_PASS_UNKNOWN, which
 * it never sets; its reference twin, which looks at every byte, gives the same: random texts of the patterns'
 * pieces at every offset in a block, asked for the acknowledgement or not, then every result head of the
 * real traces (skipped without ../shared).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PASS_LOOK } from '../src/text/failure-report.js';
import { SCAN_PASS, SCAN_PASS_UNKNOWN, reportScan, reportScanBytewise } from '../src/wasm/module-report-scan.js';
import { traceCalls, traceDir } from './helpers/traces.js';

const PASS_BITS = SCAN_PASS | SCAN_PASS_UNKNOWN;
const PIECES = [
  '9 passed', '0 errors', 'all tests passed', 'build succeeded', 'Finished', 'nothing to commit', 'ok', 'OK', 'success', 'working tree clean', 'up-to-date',
  'error', 'Exception', 'FAIL', 'fatal', 'panic', 'Traceback', '❌', '✗', '[the command', '(bash', '(completed', 'status', 'State', 'phase',
  'al', 'fi', 'su', '[', '(', '_', '\n', ' ', '\u00a0', 'é', '😀', '7', 'Done', 'updated', 'okay',
];
const piece = fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 5 }));
const text = fc
  .tuple(fc.integer({ min: 0, max: 40 }), fc.constantFrom('x', ' ', 'a', '\n', 'é'), fc.array(piece, { maxLength: 30 }))
  .map(([n, fill, parts]) => `${fill.repeat(n)}${parts.join('')}`);

describe('the module scan of an output without the pass', () => {
  it('should give every bit of the whole scan but the pass, as its byte-by-byte twin does', () => {
    fc.assert(
      fc.property(text, fc.boolean(), (t, ack) => {
        const without = reportScan(t, ack, false);
        expect(without).toBe(reportScan(t, ack) & ~PASS_BITS);
        expect(reportScanBytewise(t, ack, false)).toBe(without);
      }),
      { numRuns: 10_000 },
    );
  });

  it('should set no pass bit where the whole scan finds one', () => {
    for (const t of ['9 passed', 'all tests passed', '\nok', 'Finished', `${'é'.repeat(3)} ok`]) {
      expect(reportScan(t) & PASS_BITS, t).not.toBe(0);
      expect(reportScan(t, false, false) & PASS_BITS, t).toBe(0);
      expect(reportScanBytewise(t, false, false) & PASS_BITS, t).toBe(0);
    }
  });

  it.skipIf(traceDir === null)('should give the same bits on every result head of the real traces', () => {
    let heads = 0;
    for (const [, e] of traceCalls()) {
      if (typeof e.result !== 'string') continue;
      const h = e.result.slice(0, PASS_LOOK);
      const ack = h.length <= 1024;
      expect(reportScan(h, ack, false)).toBe(reportScan(h, ack) & ~PASS_BITS);
      heads++;
    }
    expect(heads).toBeGreaterThan(20_000);
  });
});
