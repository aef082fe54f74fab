/**
 * The HTML report's key and layout in a real browser (Debian's Chromium through playwright-core): a key
 * names every verdict kind the report shows (with what it means) and every action and mark, visible and
 * read by screen readers; a long file path stays on one line, cut in the middle, the whole path in the
 * cell's title and copied by its button; and at 800 px and 390 px no table cuts a column (each last column
 * in view, without scrolling sideways) and the page never scrolls sideways. Custom kinds (hostile names, or
 * `constructor`) are shown as text and explained as custom.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportDocument, ReportSession } from '../src/report/report-data.js';
import { launchChromium, skipBrowserTests } from './helpers/chromium.js';
import { tempDir, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { HtmlReportWriter } from '../src/report/html-report-writer.js';
import { hostileFolder, readReport } from './helpers/report-fixture.js';

/** A path as deep and long as Claude Code's project folders make them. */
const DEEP = join('projects', 'C--Users-someone-with-a-long-name-Documents-work-some-repository-name', 'nested-folder-with-more-words', 'sessions');
const LONG_NAME = '4529a985-5dc8-408c-afae-6372c3afb80c.jsonl';

/** A session that alternates two calls (a cycle) with the same answers. */
const cycling = (session: string): Record<string, unknown>[] =>
  Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? { session, step: i, tool: 'grep', args: { pattern: 'needle' }, result: 'no match' } : { session, step: i, tool: 'ls', args: { path: 'src' }, result: 'a.py b.py' }));

describe.skipIf(skipBrowserTests)('the HTML report key and layout in Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  let longFile = '';
  let reportPath = '';

  beforeAll(async () => {
    const { dir } = hostileFolder();
    mkdirSync(join(dir, DEEP), { recursive: true });
    longFile = writeJsonl(dir, join(DEEP, LONG_NAME), cycling('long-path-session'));
    const out = join(tempDir(), 'report.html');
    const run = await loopwatchInProcess(['scan', dir, '--html', out, '--workers', '0']);
    expect(run.stderr).toContain('HTML report written');
    reportPath = out;
    context = await launchChromium({ width: 1280, height: 900 });
    page = await context.newPage();
    await page.goto(pathToFileURL(out).href);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  }, 30_000);

  afterAll(async () => {
    await context?.close();
  });

  /** The kinds the matrix and the table show. */
  const kindsShown = async (): Promise<string[]> => {
    const matrix = await page.locator('#lw-matrix-table tbody th').allTextContents();
    const rows = await page.locator('#lw-table td.kinds').allTextContents();
    return [...new Set([...matrix.filter((k) => k !== 'all detectors'), ...rows.flatMap((t) => t.split(', ')).filter((k) => k !== '')])];
  };
  /** Every kind the report's data names: besides those, the timelines' verdicts and their signals. */
  const kindsInData = async (): Promise<string[]> => {
    const doc = JSON.parse((await page.locator('#lw-report').textContent()) ?? '{}') as ReportDocument;
    const rows = JSON.parse((await page.locator('#lw-sessions').textContent()) ?? '[]') as ReportSession[];
    const verdicts = doc.timelines.items.flatMap((t) => t.shown.flatMap((c) => (c.verdict === null ? [] : [c.verdict])));
    return [...new Set([...doc.matrix.map((m) => m.detector), ...rows.flatMap((r) => r.kinds), ...verdicts.flatMap((v) => [v.kind, v.detector, ...v.signals.flatMap((s) => [s.kind, s.detector])])])];
  };

  it('should name every kind shown, with its meaning, in a key that is visible and read aloud', async () => {
    const kinds = await kindsShown();
    expect(kinds).toEqual(expect.arrayContaining(['exact_repeat', 'cycle']));
    const key = page.locator('#lw-legend');
    expect(await key.isVisible()).toBe(true);
    expect(await key.evaluate((e) => e.closest('[aria-hidden="true"]') === null)).toBe(true);
    const named = await page.locator('#lw-legend dl.kinds dt').allTextContents();
    expect(named).toEqual(expect.arrayContaining(kinds));
    expect(named.sort()).toEqual((await kindsInData()).sort());
    for (const k of named) {
      const meaning = await page.locator(`#lw-legend dl.kinds dt[data-kind="${k}"] + dd`).textContent();
      expect(meaning?.length ?? 0, k).toBeGreaterThan(10);
    }
    expect(await page.locator('#lw-legend dt[data-kind="exact_repeat"] + dd').textContent()).toContain('in a row');
    const marks = await page.locator('#lw-legend ul.marks').textContent();
    for (const mark of ['warn', 'ask', 'break', 'timeline', 'ended early', 'loop start', '✓']) expect(marks).toContain(mark);
    // the timeline's key too: not hidden from screen readers
    await page.locator('#lw-table button.session.has-timeline').first().click();
    const strip = page.locator('#lw-timeline ul.legend');
    expect(await strip.isVisible()).toBe(true);
    expect(await strip.evaluate((e) => e.closest('[aria-hidden="true"]') === null)).toBe(true);
    expect(await strip.textContent()).toContain('after the first break');
  });

  it("should name a custom detector's kinds as text, whatever they are called", async () => {
    // the CLI runs only the built-in detectors: the report is written again with custom kinds in its rows and matrix
    const { rows, doc } = readReport(reportPath);
    const custom = ['constructor', 'toString', '<img src=x onerror=alert(9)>', '</script><b>x</b>'];
    const out = join(tempDir(), 'custom.html');
    writeFileSync(out, '');
    const writer = new HtmlReportWriter((text) => appendFileSync(out, text), 'custom kinds');
    for (const r of rows) writer.session(r.row === 0 ? { ...r, kinds: [...r.kinds, ...custom.slice(0, 3)] } : r);
    writer.end({ ...doc, matrix: [...doc.matrix, { detector: custom[3] as string, verdicts: { warn: 1, ask: 0, break: 0 }, sessions: { warn: 1, ask: 0, break: 0 } }] });
    const other = await context.newPage();
    const dialogs: string[] = [];
    other.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await other.goto(pathToFileURL(out).href);
    await other.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
    const named = await other.locator('#lw-legend dl.kinds dt').allTextContents();
    expect(named).toEqual(expect.arrayContaining(custom));
    const meanings = await other.locator('#lw-legend dl.kinds dd').allTextContents();
    for (const k of custom) expect(meanings[named.indexOf(k)], k).toBe('reported by a custom detector of that name');
    expect(await other.locator('#lw-legend img, #lw-legend b').count()).toBe(0);
    expect(dialogs).toEqual([]);
    await other.close();
  });

  it('should keep a long file path on one line, cut, with the whole path in its title and copied by its button', async () => {
    const cell = page.locator('#lw-table tr', { hasText: 'long-path-session' }).locator('td.file');
    expect(await cell.getAttribute('title')).toBe(longFile);
    expect(await cell.textContent()).toContain(LONG_NAME);
    // one line for all its text (every piece of text at the same height), and the row no taller than the rows of short paths
    const tops = await cell.evaluate((td) => {
      const out: number[] = [];
      const doc = td.ownerDocument;
      const walk = doc.createTreeWalker(td, 4 /* NodeFilter.SHOW_TEXT */);
      for (let n = walk.nextNode(); n !== null; n = walk.nextNode()) {
        const range = doc.createRange();
        range.selectNodeContents(n);
        for (const r of range.getClientRects()) if (r.width > 0) out.push(r.top);
      }
      return out;
    });
    expect(tops.length).toBeGreaterThan(0);
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(4);
    const height = await cell.evaluate((td) => td.getBoundingClientRect().height);
    const short = await page.locator('#lw-table tr', { hasText: 'clean-1' }).evaluate((tr) => tr.getBoundingClientRect().height);
    expect(height).toBeLessThanOrEqual(short + 1);
    // the copy button copies the whole path (the clipboard stubbed: a headless page has none to read back)
    await page.locator('body').evaluate((body) => {
      const nav = body.ownerDocument.defaultView?.navigator;
      Object.defineProperty(nav, 'clipboard', { configurable: true, value: { writeText: async (t: string) => void body.setAttribute('data-copied', t) } });
    });
    await cell.locator('button.copy').click();
    await expect.poll(() => page.locator('body').getAttribute('data-copied')).toBe(longFile);
  });

  for (const width of [800, 390]) {
    it(`should cut no column and not scroll the page sideways at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.locator('#lw-table button.session.has-timeline').first().click();
      await page.waitForSelector('#lw-timeline table.calls');
      const report = await page.locator('html').evaluate((html) => {
        const view = html.clientWidth;
        const tables = ['#lw-matrix-table', '#lw-table', '#lw-timeline table.calls'].map((sel) => {
          const table = html.querySelector(sel);
          const box = table?.parentElement;
          if (table === null || box === null || box === undefined) return { sel, view, boxRight: Infinity, boxScroll: Infinity, boxClient: 0, lastHead: 0, lastCell: Infinity };
          const right = box.getBoundingClientRect().right;
          const last = (s: string): number => Math.max(...[...table.querySelectorAll(s)].map((e) => e.getBoundingClientRect().right));
          return { sel, view, boxRight: Math.round(right), boxScroll: box.scrollWidth, boxClient: box.clientWidth, lastHead: Math.round(last('thead th:last-child')), lastCell: Math.round(last('tbody tr:first-child > :last-child')) };
        });
        return { page: html.scrollWidth, view, tables };
      });
      expect(report.page, 'the page scrolls sideways').toBeLessThanOrEqual(report.view);
      for (const t of report.tables) {
        expect(t.boxRight, t.sel).toBeLessThanOrEqual(t.view);
        expect(t.boxScroll, `${t.sel} scrolls sideways`).toBeLessThanOrEqual(t.boxClient);
        expect(t.lastCell, `${t.sel}: last column cut`).toBeLessThanOrEqual(t.boxRight + 1);
        if (t.lastHead > 0) expect(t.lastHead, `${t.sel}: last header cut`).toBeLessThanOrEqual(t.boxRight + 1);
      }
    });
  }
});
