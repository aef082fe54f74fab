/**
 * The module's scan says a status field may be in an output (SCAN_MAY_STATUS) only where status-field.ts's
 * expression can match: status, state or phase not after an ASCII letter, digit or `_`, then an optional
 * quote, white space and `:` or `=` (a non-ASCII byte where the white space may be: the expression decides).
 * It never misses one (random texts, every result head of the real traces, skipped without ../shared), and
 * the word alone, in prose or inside another word, no longer sends a head to the expression.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PASS_LOOK } from '../src/text/failure-report.js';
import { reportsStatusUnderWay } from '../src/text/status-field.js';
import { SCAN_MAY_STATUS, reportScan, reportScanBytewise } from '../src/wasm/module-report-scan.js';
import { traceCalls, traceDir } from './helpers/traces.js';

const PIECES = [
  'status', 'State', 'PHASE', 'statuses', 'x', '_', '9', '"', "'", ':', '=', ' ', '\t', '\n', '\u00a0', '\u3000', '\u2028', '\ufeff', 'é',
  'running', 'queued', 'in_progress', 'Pending', '[{', '}]', 'Output: ', '{', '-',
];
const text = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 3 })), { maxLength: 30 }).map((p) => p.join(''));
const mayStatus = (t: string): boolean => (reportScan(t) & SCAN_MAY_STATUS) !== 0;

describe("the module scan's status field", () => {
  it('should never miss a status field the expression finds, and agree with its byte-by-byte twin', () => {
    fc.assert(
      fc.property(text, fc.constantFrom(0, 2040, 2100), (t, pad) => {
        const head = `${pad === 0 ? '' : `[{"k": "${'x'.repeat(pad)}"}] `}${t}`.slice(0, PASS_LOOK);
        expect(reportScan(head)).toBe(reportScanBytewise(head));
        return !reportsStatusUnderWay(head) || mayStatus(head);
      }),
      { numRuns: 10_000 },
    );
  });

  it('should say a field may be there where its shape is, and not for the word alone', () => {
    for (const t of ['status: running', '"status": "in_progress"', "phase'=pending", 'STATE\t:\nqueued', 'x status : done', '[{"Status":"queued"}]', 'status\u00a0: running', 'state\u3000= queued']) {
      expect(mayStatus(t), t).toBe(true);
    }
    for (const t of ['the state of the tree', 'xstatus: running', '_state=queued', '9phase: pending', 'statuses: running', 'status-x: running', 'getState()', 'phase two', 'status']) {
      expect(mayStatus(t), t).toBe(false);
      expect(reportsStatusUnderWay(t), t).toBe(false);
    }
  });

  it.skipIf(traceDir === null)('should never miss one on the result heads of the real traces', () => {
    let heads = 0;
    for (const [, e] of traceCalls()) {
      if (typeof e.result !== 'string') continue;
      const h = e.result.slice(0, PASS_LOOK);
      if (reportsStatusUnderWay(h)) expect(mayStatus(h)).toBe(true);
      heads++;
    }
    expect(heads).toBeGreaterThan(20_000);
  });
});
