/**
 * Bytes with repeats at every distance, for the summary packer's tests (summary-lz, summary-lz-form): copies
 * of earlier pieces, runs of one byte, pieces of a few values, and noise; at most SUMMARY_MAX_BYTES.
 */
import fc from 'fast-check';
import { SUMMARY_MAX_BYTES } from '../../src/text/args-summary.js';

/** Repetitive bytes (see the file's header). */
export const repetitiveBytes = fc
  .array(fc.oneof(fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.uint8Array({ minLength: 1, maxLength: 60 }).map((b) => b.map((x) => x & 3)), fc.tuple(fc.nat(300), fc.integer({ min: 1, max: 600 })), fc.tuple(fc.nat(255), fc.integer({ min: 1, max: 300 }), fc.constant('run'))), { maxLength: 40 })
  .map((parts) => {
    const out: number[] = [];
    for (const p of parts) {
      if (p instanceof Uint8Array) out.push(...p);
      else if (p.length === 3) for (let k = 0; k < p[1]; k++) out.push(p[0]);
      else if (out.length > 0) {
        const from = Math.max(0, out.length - 1 - p[0]);
        for (let k = 0; k < p[1]; k++) out.push(out[from + k] as number);
      }
    }
    return Uint8Array.from(out.slice(0, SUMMARY_MAX_BYTES));
  });
