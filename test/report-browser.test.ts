/**
 * The HTML report in a real browser (Debian's Chromium, driven by playwright-core), opened from disk as a
 * person opens it: the page asks for nothing but its own file, runs no script from the data (hostile ids
 * show as written, no dialog opens), fills its tiles and matrix, lists the sessions a page at a time, sorts
 * them from the keyboard, filters them by text, action and label, and opens a timeline (and says what to
 * run for a session without one). Screenshots are saved in LOOPWATCH_REPORT_SHOTS when it names a folder
 * (kept), else in a temporary folder removed with the test file.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE_PAGE_ROWS as PAGE_ROWS } from '../src/report/report-data.js';
import { openWatchedPage, skipBrowserTests } from './helpers/chromium.js';
import { tempDir, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { hostileFolder, sessionCalls } from './helpers/report-fixture.js';
import { tempFolder } from './helpers/temp-folder.js';

/** Clean sessions besides the fixture's six, in a sub-folder: more than a page of rows. */
const BULK = 250;

describe.skipIf(skipBrowserTests)('the HTML report in Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  let requests: string[] = [];
  let problems: string[] = [];
  const shots = process.env.LOOPWATCH_REPORT_SHOTS || tempFolder('report-shots');
  let reportUrl = '';

  beforeAll(async () => {
    const { dir } = hostileFolder();
    mkdirSync(join(dir, 'more'));
    writeJsonl(dir, 'more/bulk.jsonl', Array.from({ length: BULK }, (_, i) => sessionCalls(`bulk-${String(i).padStart(3, '0')}`, false, 1 + (i % 9))).flat());
    const out = join(tempDir(), 'report.html');
    const run = await loopwatchInProcess(['scan', dir, '--html', out, '--workers', '0', '--timelines', '3']);
    expect(run.stderr).toContain('HTML report written');
    reportUrl = pathToFileURL(out).href;
    ({ context, page, requests, problems } = await openWatchedPage(reportUrl, 10_000, { console: true }));
  }, 30_000);

  afterAll(async () => {
    await context?.close();
    if (process.env.LOOPWATCH_REPORT_SHOTS) process.stderr.write(`report screenshots: ${shots}\n`);
  });

  const rowCount = (): Promise<number> => page.locator('#lw-table tbody tr[data-row]').count();
  const column = async (key: string): Promise<string[]> => {
    const index = await page.locator('#lw-table thead th').evaluateAll((ths, k) => ths.findIndex((th) => th.getAttribute('data-key') === k), key);
    return page.locator(`#lw-table tbody tr[data-row] td:nth-child(${index + 1})`).allTextContents();
  };

  it('should fill the summary, the matrix, the cost and the limits, loading nothing but its own file', async () => {
    await page.screenshot({ path: join(shots, 'top.png') });
    const tiles = await page.locator('#lw-tiles .tile').allTextContents();
    expect(tiles[0]).toContain(`${6 + BULK}`);
    expect(tiles.join(' ')).toContain('share of budget wasted');
    expect(await page.locator('#lw-matrix-table tbody th').allTextContents()).toEqual(['exact_repeat']);
    expect(await page.locator('#lw-cost dt').allTextContents()).toEqual(['calls per second', 'per call', 'scan time', 'memory peak', 'timelines']);
    expect(await page.locator('#lw-limits li').count()).toBeGreaterThanOrEqual(5);
    expect(requests).toEqual([reportUrl]);
    expect(problems).toEqual([]);
    // a laptop screen holds the page without sideways scrolling
    expect(await page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth')).toBe(true);
  });

  it('should list the sessions a page at a time, worst first, hostile ids shown as written', async () => {
    expect(await rowCount()).toBe(PAGE_ROWS);
    expect(await page.locator('#lw-count').textContent()).toBe(`${6 + BULK} of ${6 + BULK} sessions match; showing the first ${PAGE_ROWS}`);
    await page.locator('#lw-more').click();
    expect(await rowCount()).toBe(6 + BULK);
    expect(await page.locator('#lw-more').isHidden()).toBe(true);
    const ids = await page.locator('#lw-table button.session').allTextContents();
    expect(ids.slice(0, 5).sort()).toEqual(['</script><script>alert(1)</script>', `<img src=x onerror=alert(2)> "q" 'q' &amp;`, 'a|b|c `x` *y*', 'loop-a', 'token=[REDACTED]'].sort());
    expect(await page.locator('#lw-table img, #lw-table b').count()).toBe(0);
    expect(await page.locator('#lw-table-host .hint').textContent()).toMatch(/^Files below .*\/$/);
    expect(await column('file')).toContain('more/bulk.jsonl');
    expect(problems).toEqual([]);
  });

  it('should sort by a column from the keyboard, both ways', async () => {
    await page.locator('th[data-key="calls"] button').focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('th[data-key="calls"]').getAttribute('aria-sort')).toBe('descending');
    const down = (await column('calls')).map(Number);
    expect(down).toEqual([...down].sort((a, b) => b - a));
    await page.keyboard.press('Space');
    expect(await page.locator('th[data-key="calls"]').getAttribute('aria-sort')).toBe('ascending');
    const up = (await column('calls')).map(Number);
    expect(up).toEqual([...up].sort((a, b) => a - b));
    expect(up[0]).toBe(1);
    expect(await page.locator('th[data-key="wasted"]').getAttribute('aria-sort')).toBe('none');
  });

  it('should filter by text, by action and by label', async () => {
    await page.locator('#lw-filter').fill('ALERT');
    expect((await page.locator('#lw-table button.session').allTextContents()).sort()).toEqual(['</script><script>alert(1)</script>', `<img src=x onerror=alert(2)> "q" 'q' &amp;`]);
    await page.locator('#lw-filter').fill('');
    await page.locator('#lw-action').selectOption('none');
    expect(await page.locator('#lw-count').textContent()).toBe(`${1 + BULK} of ${6 + BULK} sessions match; showing the first ${PAGE_ROWS}`);
    await page.locator('#lw-action').selectOption('break');
    expect(await rowCount()).toBe(5);
    await page.locator('#lw-label').selectOption('step_limit');
    expect((await page.locator('#lw-table button.session').allTextContents()).sort()).toEqual(['</script><script>alert(1)</script>', `<img src=x onerror=alert(2)> "q" 'q' &amp;`]);
    await page.locator('#lw-label').selectOption('');
    await page.locator('#lw-action').selectOption('');
    await page.locator('#lw-filter').fill('no such session');
    expect(await page.locator('#lw-table tbody td.empty').textContent()).toBe('No session matches the filters.');
    await page.locator('#lw-filter').fill('');
    expect(await page.locator('#lw-count').textContent()).toContain(`${6 + BULK} of ${6 + BULK}`);
  });

  it('should open a timeline with the verdicts beside the calls and the loop highlighted', async () => {
    await page.locator('#lw-filter').fill('loop-a');
    await page.locator('#lw-table button.session.has-timeline').click();
    await expect.poll(() => page.locator('#lw-timeline-title').textContent()).toBe('Timeline: loop-a');
    expect(await page.evaluate('document.activeElement.id')).toBe('lw-timeline-title');
    expect(new URL(page.url()).hash).toMatch(/^#session-\d+$/);
    expect(await page.locator('#lw-timeline table.calls tbody tr').count()).toBe(12);
    expect(await page.locator('#lw-timeline .strip .cell').count()).toBe(12);
    expect(await page.locator('#lw-timeline tr.v-warn').count()).toBe(1);
    expect(await page.locator('#lw-timeline tr.v-break').count()).toBe(7);
    expect(await page.locator('#lw-timeline tr.loop').count()).toBe(10);
    expect(await page.locator('#lw-timeline tr.wasted').count()).toBe(6);
    expect(await page.locator('#lw-timeline .facts').textContent()).toContain('first break at call #6, 6 calls after it · label: submitted');
    // calls counted from 1 where a person reads them (the data's index stays from 0)
    expect(await page.locator('#lw-timeline tr[data-index="0"] td').first().textContent()).toBe('1');
    // the fixture's steps are the calls' indexes (no step of the input's own): no step column, not a blank one
    expect(await page.locator('#lw-timeline table.calls thead th').allTextContents()).toEqual(['#', 'call', 'outcome', 'verdict']);
    expect(await page.locator('#lw-timeline tr[data-index="0"] td').nth(1).getAttribute('data-label')).toBe('call');
    expect(await page.locator('#lw-timeline tr.v-warn td.verdict').textContent()).toMatch(/ since call #[1-9]\d* → /);
    expect((await column('loopStart')).filter((t) => t !== '')).toEqual(expect.arrayContaining([expect.stringMatching(/^(call #[1-9]\d*|step \d+) → (call #[1-9]\d*|step \d+)$/)]));
    expect(await page.locator('#lw-timeline tr[data-index="5"] td.call').textContent()).toBe('bash {"command":"pytest -x </script><b>bold</b>"}');
    expect(await page.locator('#lw-timeline b, #lw-timeline script').count()).toBe(0);
    // the address opens it again
    const again = await context.newPage();
    await again.goto(page.url());
    await again.waitForSelector('body[data-ready="true"]');
    expect(await again.locator('#lw-timeline-title').textContent()).toBe('Timeline: loop-a');
    await again.close();
    await page.locator('#lw-timeline-title').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'timeline.png') });
    await page.screenshot({ path: join(shots, 'full.png'), fullPage: true });
    expect(problems).toEqual([]);
  });

  it('should say how to see a session that has no timeline', async () => {
    await page.locator('#lw-filter').fill('bulk-');
    const without = page.locator('#lw-table button.session:not(.has-timeline)').first();
    const id = await without.textContent();
    await without.click();
    await expect.poll(() => page.locator('#lw-timeline-title').textContent()).toBe(`Timeline: ${id}`);
    expect(await page.locator('#lw-timeline pre.command').textContent()).toMatch(new RegExp(`^loopwatch explain ${id} '?.*bulk\\.jsonl'?$`));
  });
});
