/**
 * A result's outcome facts read fast answer exactly as the plain definitions (test/helpers/outcome-reference.ts):
 * each distinct head read once (readHead, cached), the module's one pass over its bytes (reportScan: the
 * pass patterns, and whether a failure stem or a note can be there at all), the notes looked for before they are taken out, the
 * acknowledgement's masking stopped once it is too long, the shell writes tested as one expression. Random
 * texts built to hit the patterns' edges (words at text boundaries, Unicode letters next to words, "0 errors",
 * notes, lengths at the 1024 and 4096 caps, multi-byte characters and JSON escapes cut at a cap), then every
 * result and command of the real traces (skipped without ../shared).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shortText, textHead } from '../src/policy/outcome-facts.js';
import { changesWorkspace } from '../src/policy/workspace-changes.js';
import { parseArgs } from '../src/fingerprint/signature.js';
import { ACK_LOOK, acknowledgesScanned, isAcknowledgement } from '../src/text/acknowledgement.js';
import { MASK_LIMIT } from '../src/text/mask-volatile.js';
import { PASS_LOOK, PASS_PATTERNS, REPORTS_FAILURE, REPORTS_PASS, reportOf } from '../src/text/failure-report.js';
import { READ_ACK, READ_FAILURE, READ_PASS, READ_STATUS, READ_WAITING, READING_CACHE_CHARS, READING_CACHE_ENTRIES, readHead, readingCacheChars, readingCacheSize } from '../src/text/result-reading.js';
import { reportsStatusUnderWay } from '../src/text/status-field.js';
import { saysStillWaiting } from '../src/text/still-waiting.js';
import { SCAN_FAILURE, SCAN_FAILURE_UNKNOWN, SCAN_MAY_ACK, SCAN_MAY_FAIL, SCAN_MAY_NOTE, SCAN_MAY_STATUS, SCAN_PASS, SCAN_PASS_UNKNOWN, reportScan } from '../src/wasm/module-report-scan.js';
import { RawJsonString } from '../src/wasm/raw-json-string.js';
import { plainAcknowledgement, plainChangesWorkspace, plainFailure, plainHeadReport, plainReport } from './helpers/outcome-reference.js';
import { traceCalls, traceDir } from './helpers/traces.js';

const PIECES = [
  'error', 'Errors', 'FAILED', 'fail', 'Traceback', 'TRACEBAC\u212A', 'exception', 'panic', 'fatal', 'TypeError', 'error_handler', 'ErrorBoundary.tsx',
  '0 errors', 'no failures', 'zero fail', 'Found 0 errors', 'no issues', '❌', '✗', '✘', 'ſ', 'é', '日本', '😀', 'ok', 'OK', 'okay', 'test result: ok',
  '9 passed', '12 passing', 'All checks passed!', 'all 3 tests pass', 'Success', 'succeeded', 'successfully', 'Finished', 'Build succeeded', 'compiled',
  'up to date', 'up-to-date', 'nothing to commit', 'working tree clean', '[The command completed with exit code 0.]', '[Current working directory: /srv/errors]',
  '[Python interpreter: /usr/bin/python]', '[Command finished with exit code 1]', '(completed with no output)', '(bash completed with no output)', '(PowerShell completed with no output)',
  'The file /a/b.ts has been updated successfully.', 'has been', 'updated', 'Plan updated', 'Task #3 created', 'Done', 'set', 'offset', '"quoted part"',
  'ID: f800eb', '/usr/local/lib', 'line42', '9f86d081', 'pending', 'in progress', 'in_progress', 'running', 'queued', 'ci/running', 'not ready',
  ' ', '  ', '\n', '\t', '.', '-', '_', '7', '0', '(', ')', '[', ']', ':', '\u00a0', '\u2028', '\u3000', '\ufeff', '\u00a0ok', 'é ok', '\u3000finished',
  'panic\u212Aed', '\u017Fyntaxerror', '\u212Aeyerror', 'fail\u017F', 'errors2', 'x.error', 'a-fail', 'NO ERRORS', 'ZERO failures', '\u00a0no errors', 'KeyError:', 'error_',
  'Saved', 'SENT', 'reset', 'Okay', 'book', 'ok_', 'tok', 'Cancelled', 'canceled', 'Written', 'inserted', 'appended', 'uploaded', 'Reverted', 'completed', 'succe',
  'status: running', '"status": "in_progress"', 'state=queued', 'phase: Pending', 'running_total', 'STATUS:running', '[{"Status":"queued"}]', 'Output: [{"phase": "pending"', '"stat', 'us":"waiting"',
  'status\u00a0: running', 'state\u3000= queued', "phase': pending", 'xstatus: running', '_state=queued', '9phase: pending', 'status\n\t: waiting', 'states: running', 'status-x: running',
  'ok(', 'passed❌', '[the', '(bash', '[Python', '(Completed', 'ERROR', 'Panic', 'FATAL', 'exceptions', 'all 12 tests passed', 'ALL CHECKS OK', '0 warnings',
  '10 errors', 'x0 errors', '\n0 errors', '\tno error', 'No Fail', 'zero errors', 'Zero Errors', 'azero errors', '0  errors', ' no  failures', 'no-error', 'error.', '.error', '-fail',
  'é error', 'erroré', '\u00a0zero error', 'ﬁ', 'Error2', '_fail', 'FAILS', 'Failures:', 'RuntimeError:', 'ModuleNotFoundError', 'Panicked', 'keyerror', 'error\u212A',
  // quiet48: lines of tests that passed (a check mark first, after white space and colour codes)
  '\n  ✓ throws an error', '✔ fails on bad input\n', '\n\u001b[32m✓\u001b[39m error', '\r√ error', ' ✓', '\n✕ fails',
];
const words = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 3 })), { maxLength: 40 }).map((p) => p.join(''));
/** Texts near the caps: padding to about ACK_LOOK, the masked ACK_BYTES or PASS_LOOK characters, then words. */
const padded = fc
  .tuple(fc.constantFrom(0, 200, 250, 1000, 1020, 4080, 4090), fc.constantFrom('x', ' ', '/p', 'é', '日', 'ab '), words, words)
  .map(([n, unit, a, b]) => `${a}${unit.repeat(Math.ceil(n / unit.length))}${b}`);
const text = fc.oneof(words, padded);

/** A string as a JSON literal of ASCII bytes (non-ASCII written as \u escapes), as the events reader keeps it. */
function raw(s: string): RawJsonString {
  const lit = JSON.stringify(s).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return new RawJsonString(Buffer.from(lit, 'latin1'), lit.includes('\\'));
}

/** outcome-facts' old reading of a result: the acknowledgement and status of a short text, the report of its head. */
function plainResult(result: unknown): number {
  const short = shortText(result, ACK_LOOK);
  const head = result === null ? '' : textHead(result, PASS_LOOK);
  let bits = head === undefined ? 0 : plainHeadReport(head);
  if (short !== undefined && plainAcknowledgement(short)) bits |= READ_ACK;
  if (short !== undefined && saysStillWaiting(short)) bits |= READ_WAITING;
  if (head !== undefined && reportsStatusUnderWay(head)) bits |= READ_STATUS;
  return bits;
}

/** The reading as outcome-facts now takes it. */
function fastResult(result: unknown): number {
  const head = result === null ? '' : textHead(result, PASS_LOOK);
  return head === undefined ? 0 : readHead(head);
}

describe('outcome readings read fast', () => {
  it('should keep the report bits where reportOf gives them', () => {
    expect([READ_PASS, READ_FAILURE]).toEqual([REPORTS_PASS, REPORTS_FAILURE]);
  });

  it('should read a text exactly as the plain definitions, the first time and from the cache', () => {
    fc.assert(
      fc.property(text, (t) => {
        const want = plainResult(t);
        return readHead(t.slice(0, PASS_LOOK)) === want && fastResult(t) === want && reportOf(t) === plainReport(t) && isAcknowledgement(t) === plainAcknowledgement(t);
      }),
      { numRuns: 10_000 },
    );
  });

  it('should read a result still in its JSON bytes as its string, multi-byte characters cut at a cap included', () => {
    fc.assert(fc.property(text, (t) => fastResult(raw(t)) === plainResult(t) && plainResult(raw(t)) === plainResult(t)), { numRuns: 2000 });
    for (const n of [ACK_LOOK - 1, ACK_LOOK, ACK_LOOK + 1, PASS_LOOK - 1, PASS_LOOK, PASS_LOOK + 1]) {
      for (const t of [`${'日'.repeat(n)}`, `Done ${'é'.repeat(n - 5)}`, `${'x'.repeat(n - 2)}😀 error`, `All checks passed! ${'\\'.repeat(n)}`]) {
        expect(fastResult(raw(t))).toBe(plainResult(t));
        expect(fastResult(t)).toBe(plainResult(t));
      }
    }
  });

  it("should find in the module's one pass what the expressions find, and never miss a stem or a note", () => {
    const STEMS = /error|fail|traceback|exception|panic|fatal|[❌✗✘]/iu;
    const NOTE = /\[(?:the command completed with exit code \d+\.?|current working directory:[^\]]*|python interpreter:[^\]]*|command finished with exit code \d+)\]|\((?:bash |powershell )?completed with no output\)/iu;
    fc.assert(
      fc.property(text, (t) => {
        const scan = reportScan(t);
        const pass = PASS_PATTERNS.some((p) => p.test(t));
        if ((scan & SCAN_PASS_UNKNOWN) === 0 && ((scan & SCAN_PASS) !== 0) !== pass) return false;
        if ((scan & SCAN_PASS) !== 0 && !pass) return false;
        // looked for only when asked, and then never missing an acknowledgement
        if ((scan & SCAN_MAY_ACK) !== 0 || ((reportScan(t, true) & SCAN_MAY_ACK) === 0 && plainAcknowledgement(t))) return false;
        // the failure expression's answer, decided by the module but where it says it cannot tell
        const head = t.slice(0, PASS_LOOK);
        const hs = reportScan(head);
        if ((hs & SCAN_FAILURE_UNKNOWN) === 0 && ((hs & SCAN_FAILURE) !== 0) !== plainFailure(head)) return false;
        if ((hs & SCAN_FAILURE) !== 0 && (hs & SCAN_FAILURE_UNKNOWN) !== 0) return false;
        if (reportsStatusUnderWay(t.slice(0, PASS_LOOK)) && (reportScan(t.slice(0, PASS_LOOK)) & SCAN_MAY_STATUS) === 0) return false;
        return (!STEMS.test(t) || (scan & SCAN_MAY_FAIL) !== 0) && (!NOTE.test(t) || (scan & SCAN_MAY_NOTE) !== 0);
      }),
      { numRuns: 10_000 },
    );
    expect(reportScan('ok\nTRACEBAC\u212A (most recent call last)') & SCAN_MAY_FAIL).toBe(SCAN_MAY_FAIL);
    expect(reportScan('\u00a0ok') & (SCAN_PASS | SCAN_PASS_UNKNOWN)).toBe(SCAN_PASS_UNKNOWN); // a non-ASCII space before a line-start word: the expression decides
    expect(reportScan('9 passed(') & SCAN_PASS).toBe(SCAN_PASS);
    for (const t of ['Plan updated', 'OK', 'x ok.', 'Okay', 'CANCELED', 'succeeded', '42updated', 'set7', '(done)', 'ok0']) expect(reportScan(t, true) & SCAN_MAY_ACK).toBe(SCAN_MAY_ACK);
    for (const t of ['reset', 'tokay', 'book', 'ok_', 'oks', 'x_updated', 'succe', 'update', 'settings', 'nothing here']) expect(reportScan(t, true) & SCAN_MAY_ACK).toBe(0);
  });

  it("should mask a text where a word of the patterns stands beside digits or is cut where the masking stops", () => {
    // the masking puts <n> for digits beside a word, and reads MASK_LIMIT bytes: "has been updatedX" is cut
    // after "updated"; a path of 2,000 bytes (670 characters) is masked to "<path>"
    const path = `/${'日'.repeat(670)} has been `;
    for (const w of ['updated', 'Set', 'saved']) {
      const t = `${path}${' '.repeat(MASK_LIMIT - Buffer.byteLength(path) - w.length)}${w}X`;
      expect(Buffer.byteLength(t.slice(0, -1))).toBe(MASK_LIMIT);
      expect(t.length).toBeLessThanOrEqual(ACK_LOOK);
      expect(plainAcknowledgement(t)).toBe(true);
      expect(readHead(t) & READ_ACK).toBe(READ_ACK);
    }
    for (const t of ['Plan updated2', '3Done', 'file42 saved12', 'reset done', 'ok9', 'Updated2 task 1']) expect(readHead(t)).toBe(plainResult(t));
    expect(readHead('Updated2 task 1') & READ_ACK).toBe(READ_ACK); // masked "Updated<n> task <n>"
  });

  it('should read results that are not text as before (null a pass, objects nothing)', () => {
    for (const r of [null, { status: 'pending' }, [1, 2], 42, true]) expect(fastResult(r)).toBe(plainResult(r));
    expect(fastResult(null)).toBe(READ_PASS);
  });

  it("should mask a scanned text in the module as the host masks it, and mask here a text it was not the last to scan", () => {
    fc.assert(
      fc.property(text, (t) => {
        const want = plainAcknowledgement(t);
        reportScan(t, true);
        if (acknowledgesScanned(t) !== want) return false;
        reportScan(`${t}x`);
        return acknowledgesScanned(t) === want;
      }),
      { numRuns: 5000 },
    );
  });

  it('should stop masking an acknowledgement only where its length already says no', () => {
    const ack = 'The file /a/b.ts has been updated successfully.';
    for (let n = 150; n < 300; n += 3) {
      for (const t of [`${ack} ${'word '.repeat(n / 5)}`, `${'w '.repeat(n / 2)}${ack}`, `Plan updated${' x'.repeat(n / 2)}`]) expect(isAcknowledgement(t)).toBe(plainAcknowledgement(t));
    }
  });

  it('should keep the cache bounded, and answer right after it starts again', () => {
    const want = plainResult('9 passed');
    for (let i = 0; i < 200; i++) readHead(`${i} ${'y'.repeat(PASS_LOOK - 8)}`);
    expect(readingCacheChars()).toBeLessThanOrEqual(READING_CACHE_CHARS);
    for (let i = 0; i < 3 * READING_CACHE_ENTRIES; i++) readHead(`${i} passed`);
    expect(readingCacheSize()).toBeLessThanOrEqual(READING_CACHE_ENTRIES);
    expect(readHead('9 passed')).toBe(want);
    expect(readHead(`${'z'.repeat(PASS_LOOK)}`)).toBe(plainResult('z'.repeat(PASS_LOOK)));
  });

  it('should tell a shell write exactly as the patterns tested one by one', () => {
    const PARTS = ['sed -i', 'sed -n', 'perl -pi', 'tee', 'patch', 'apply_patch', 'git checkout', 'git status', '> out.txt', '2>&1', '>/dev/null', '>> log', 'mv', 'cp', 'rm -rf', 'mkdir', 'gofmt -w', 'go fmt', 'black', 'prettier --write', 'eslint --fix', 'npm install', 'npm test', 'pip install', 'uv sync', 'cargo add', ' ', ';', '&&', '|', '(', 'x', 'ls',
      // separators glued to a command's word, tabs, redirects after digits and signs (ANY_SHELL_WRITE shares the patterns' separator)
      ';tee', '(mv a b)', '|patch', '&git\treset', 'sed\t-i', 'x>y', '1>z', '&>f', '=>g', '->h', '>&2', 'cargo fmt', 'ruff format', 'yarn add', 'pnpm i', 'go get', 'bundle install', '\ntouch', 'chmod\t'];
    const command = fc.array(fc.oneof(fc.constantFrom(...PARTS), fc.string({ maxLength: 4 })), { maxLength: 12 }).map((p) => p.join(' '));
    fc.assert(fc.property(command, (c) => changesWorkspace('Bash', { command: c }) === plainChangesWorkspace('Bash', { command: c })), { numRuns: 3000 });
  });

  it.skipIf(traceDir === null)('should read every result and command of the real traces as the plain definitions', () => {
    let results = 0;
    for (const [, e] of traceCalls()) {
      const args = parseArgs(e.args);
      expect(changesWorkspace(e.tool, args)).toBe(plainChangesWorkspace(e.tool, args));
      if (e.result === undefined) continue;
      expect(fastResult(e.result)).toBe(plainResult(e.result));
      if (typeof e.result === 'string') expect(fastResult(raw(e.result))).toBe(plainResult(e.result));
      results++;
    }
    expect(results).toBeGreaterThan(20_000);
  });
});
