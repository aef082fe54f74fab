/**
 * result-reading.ts reads the outcome facts' other readings of a result's head once per distinct head, kept
 * with its cached reading: an empty mailbox (READ_INBOX, where no status field is under way), a runner's
 * banner or a note that nothing was printed (READ_QUIET, where the pass is read and neither a pass nor a
 * failure was found), and a list of saved files (savesFiles, read into the reading readHead used last). Each
 * is held to its plain function, on random heads read in random order with every combination of the
 * acknowledgement and the pass asked (so cache hits, misses and readings made without the pass all occur),
 * and on every result head of the real traces (skipped without ../shared).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textHead } from '../src/policy/outcome-facts.js';
import { saysInboxEmpty } from '../src/text/empty-inbox.js';
import { notesNoOutput } from '../src/text/empty-output-note.js';
import { PASS_LOOK } from '../src/text/failure-report.js';
import { READ_FAILURE, READ_INBOX, READ_PASS, READ_QUIET, READ_STATUS, readHead, savesFiles } from '../src/text/result-reading.js';
import { printsOnlyBanner } from '../src/text/runner-banner.js';
import { reportsSavedFiles } from '../src/text/saved-files.js';
import { traceCalls, traceDir } from './helpers/traces.js';

const PIECES = [
  '', ' ', '\n', '\n\n', '  ', 'ok', '9 passed', 'error: x', 'FAILED', 'no new messages', 'Inbox is empty', '0 unread messages', 'mailbox empty',
  '> app@0.1.0 lint', '> eslint .', 'yarn run v1.22.19', '$ eslint .', 'Done in 2.41s.', 'Output: (empty)', 'Directory: /w', 'Command: ls',
  'Saved: out/loss.png', 'Figure saved to out/a.png', 'Wrote report.html', '/home/me/results', './out/a.png', 'status: pending', '"state": "running"',
  'hello world', 'Done', 'é', '\u00a0', 'x'.repeat(300), 'y'.repeat(1100),
];

/** A head of a few pieces joined by line breaks or nothing, at most PASS_LOOK characters. */
const head = fc
  .array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom('', '\n', ' ')), { maxLength: 6 })
  .map((parts) => parts.map(([p, sep]) => p + sep).join('').slice(0, PASS_LOOK));

/** The plain functions' answers for a head, as outcome-facts.ts asked them before. */
function plain(h: string, bits: number, pass: boolean): { inbox: boolean; quiet: boolean; saved: boolean } {
  return {
    inbox: (bits & READ_STATUS) === 0 && saysInboxEmpty(h),
    quiet: pass && (bits & (READ_PASS | READ_FAILURE)) === 0 && (printsOnlyBanner(h) || notesNoOutput(h)),
    saved: reportsSavedFiles(h),
  };
}

function check(h: string, ack: boolean, pass: boolean): void {
  const bits = readHead(h, ack, undefined, pass);
  const want = plain(h, bits, pass);
  expect((bits & READ_INBOX) !== 0).toBe(want.inbox);
  expect((bits & READ_QUIET) !== 0).toBe(want.quiet);
  expect(savesFiles(h)).toBe(want.saved);
  // asked again (kept in the reading now), and of another text than the last read
  expect(savesFiles(h)).toBe(want.saved);
}

describe('readHead: a head read once for the outcome facts\' other readings', () => {
  it('should give each reading as its plain function, hits and misses, any ack and pass', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(head, fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 12 }), fc.array(fc.nat(11), { maxLength: 12 }), (reads, again) => {
        for (const [h, ack, pass] of reads) check(h, ack, pass);
        // the same heads again, in another order and with other flags: cached readings made under other flags
        for (const k of again) {
          const [h, ack, pass] = reads[k % reads.length] as [string, boolean, boolean];
          check(h, !ack, pass === ack);
          const other = reads[(k + 1) % reads.length]?.[0] ?? '';
          expect(savesFiles(other)).toBe(reportsSavedFiles(other));
        }
      }),
      { numRuns: 400 },
    );
  });

  it.skipIf(traceDir === null)('should read every result head of the real traces as the plain functions', () => {
    for (const [, e] of traceCalls()) {
      if (e.error !== undefined || e.result === undefined) continue;
      const h = e.result === null ? '' : textHead(e.result, PASS_LOOK);
      if (h === undefined) continue;
      check(h, false, true);
      check(h, true, false);
    }
  });
});
