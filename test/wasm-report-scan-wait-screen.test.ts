/**
 * The module scan's screen of a short head for a wait's and an empty mailbox's words (assembly/report-scan.ts's
 * SCAN_MAY_WAIT, asked with ASK_WAIT; issue 29): the scan sixteen bytes at a time gives the bit of its twin that
 * looks at every byte and of the TypeScript twin that defines it (wait-screen.ts's WAIT_SCREEN), on random texts
 * of the words, their pieces and colour codes at every offset of a block, and on every short result head of the
 * real traces (skipped without ../shared); and the screen never says "none" of a text saysStillWaiting or
 * saysInboxEmpty says yes of.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { saysInboxEmpty } from '../src/text/empty-inbox.js';
import { WAITING_LOOK, WAITING_WORDS, saysStillWaiting } from '../src/text/still-waiting.js';
import { mayWait } from '../src/text/wait-screen.js';
import { HEAD_WAIT_UNITS } from '../src/wasm/generated/abi.js';
import { SCAN_MAY_WAIT, reportScan, reportScanBytewise } from '../src/wasm/module-report-scan.js';
import { INBOX_LOOK } from '../src/text/empty-inbox.js';
import { traceCalls, traceDir } from './helpers/traces.js';

const WORDS = [...WAITING_WORDS, 'not-yet_ready', 'no messages', 'No new mail', '0 unread messages', 'inbox is empty', 'Mailbox empty', 'messages', 'mail', 'empty'];
const PIECES = [...WORDS, '\x1b[33m', '\x1b[0m', '\x1b', 'pen', 'ding', 'pro', 'run', 'ning', 'que', 'wai', 'rea', 'sch', 'sta', 'ini', 'mes', 'mai', 'emp', 'status: ', ' ', '\n', '-', '_', '.', '/', 'é', '日', '😀', 'K', 'ſ'];
const piece = fc.oneof(fc.constantFrom(...PIECES), fc.constantFrom(...PIECES).map((w) => w.toUpperCase()), fc.string({ maxLength: 4 }));
/** Texts with a run of filler first, so every piece lands at every offset of a sixteen-byte block. */
const text = fc
  .tuple(fc.integer({ min: 0, max: 40 }), fc.constantFrom('x', ' ', 'a', '\n', 'é'), fc.array(piece, { maxLength: 16 }))
  .map(([n, fill, parts]) => `${fill.repeat(n)}${parts.join('')}`);

describe("the module scan's screen of a short head for a wait's words", () => {
  it('should look as far as the readings read', () => {
    expect(HEAD_WAIT_UNITS).toBe(WAITING_LOOK);
    expect(HEAD_WAIT_UNITS).toBe(INBOX_LOOK);
  });

  it('should give the bit of the scan that looks at every byte and of wait-screen.ts, only when asked', () => {
    fc.assert(
      fc.property(text, fc.boolean(), fc.boolean(), (t, ack, pass) => {
        const fast = reportScan(t, ack, pass, true);
        expect(fast).toBe(reportScanBytewise(t, ack, pass, true));
        expect((fast & SCAN_MAY_WAIT) !== 0).toBe(mayWait(t));
        // not asked: the other bits as before, no SCAN_MAY_WAIT
        const plain = reportScan(t, ack, pass);
        expect(plain).toBe(fast & ~SCAN_MAY_WAIT);
      }),
      { numRuns: 8000 },
    );
  });

  it('should find a word or an ESC that begins at any lane, or ends at the text', () => {
    for (const w of ['pending', 'In Progress', 'QUEUED', 'ready', 'mail', 'empty', 'initialising', '\x1b[0m']) {
      for (let n = 0; n < 40; n++) {
        for (const t of [`${'x '.repeat(n)}${w}`, `${'-'.repeat(n)}${w}${'-'.repeat(n)}`, `${'é'.repeat(n)}${w}`]) {
          expect(reportScan(t, false, true, true) & SCAN_MAY_WAIT, t).toBe(SCAN_MAY_WAIT);
          expect(reportScanBytewise(t, false, true, true) & SCAN_MAY_WAIT, t).toBe(SCAN_MAY_WAIT);
        }
        // cut by the text's end: its first letters are no word (an ESC is one byte)
        const cut = `${'x '.repeat(n)}${w.slice(0, Math.min(4, w.length - 1))}`;
        expect(reportScan(cut, false, true, true) & SCAN_MAY_WAIT, cut).toBe(w === '\x1b[0m' ? SCAN_MAY_WAIT : 0);
      }
    }
  });

  it('should never say "none" of a text saysStillWaiting or saysInboxEmpty says yes of', () => {
    // a colour code inside a word: saysStillWaiting reads the text without it
    expect(saysStillWaiting('\x1b[33mpen\x1b[0mding')).toBe(true);
    expect(mayWait('\x1b[33mpen\x1b[0mding')).toBe(true);
    fc.assert(
      fc.property(text, (t) => {
        if (saysStillWaiting(t) || saysInboxEmpty(t)) expect(mayWait(t)).toBe(true);
      }),
      { numRuns: 8000 },
    );
  });

  it.skipIf(traceDir === null)('should give the same bit on every short result head of the real traces, and "none" of most', () => {
    let heads = 0;
    let none = 0;
    for (const [, e] of traceCalls()) {
      if (typeof e.result !== 'string' || e.result.length > HEAD_WAIT_UNITS) continue;
      const h = e.result;
      const fast = reportScan(h, false, true, true);
      expect(fast).toBe(reportScanBytewise(h, false, true, true));
      expect((fast & SCAN_MAY_WAIT) !== 0).toBe(mayWait(h));
      if (saysStillWaiting(h) || saysInboxEmpty(h)) expect(mayWait(h)).toBe(true);
      if (!mayWait(h)) none++;
      heads++;
    }
    expect(heads).toBeGreaterThan(5000);
    expect(none).toBeGreaterThan(heads / 2);
  });
});
