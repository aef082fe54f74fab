/**
 * The HTML report opened in a real Chromium (Debian's, driven by playwright-core) when the traces were
 * written by someone hostile: every field a report shows (session id, tool, args, result, error, the file's
 * name, a label's agent and status) holds markup that would run script if it were parsed as HTML (`</script>`,
 * `<img onerror>`, `<svg onload>`, `<iframe srcdoc>`, `javascript:` URLs), bidirectional controls and a
 * 10 MB argument. Every payload would set a global and change the page's title: neither happens, with every
 * timeline opened, no link goes to `javascript:`, nothing is fetched but the file itself, and the report
 * stays small (hostile5).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWatchedPage, skipBrowserTests } from './helpers/chromium.js';
import { tempDir, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

/** What each payload runs, if it ever runs. */
const RUN = "window.__lwPwned=(window.__lwPwned||0)+1;document.title='pwned'";
const PAYLOADS = [
  `</script><script>${RUN}</script>`,
  `<img src=x onerror="${RUN}">`,
  `<svg onload="${RUN}"></svg>`,
  `<iframe srcdoc="<script>parent.${RUN.replaceAll(';', ';parent.')}</script>"></iframe>`,
  `javascript:${RUN}`,
  `"><a href="javascript:${RUN}">x</a>`,
  `\u202e${RUN}\u2066<b>`,
  `'-->]]><!--<script>${RUN}</script>`,
];

describe.skipIf(skipBrowserTests)('a report of hostile traces in Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  let report = '';
  let requests: string[] = [];
  let problems: string[] = [];

  beforeAll(async () => {
    const dir = tempDir();
    const calls: Record<string, unknown>[] = [];
    PAYLOADS.forEach((p, k) => {
      const session = `${k} ${p}`;
      for (let i = 0; i < 8; i++) {
        calls.push({ session, step: i, agent: p, tool: i < 2 ? p : 'bash', args: { command: `pytest ${p}`, url: `javascript:${RUN}`, big: k === 0 && i === 2 ? 'x'.repeat(10_000_000) : p }, result: `1 failed ${p}`, error: `exit 1 ${p}`, text: p, description: p });
      }
    });
    const file = writeJsonl(dir, `<svg onload=${RUN.replaceAll('/', '')}>.jsonl`, calls);
    writeJsonl(dir, 'sessions.jsonl', PAYLOADS.map((p, k) => ({ session: `${k} ${p}`, agent: p, exit_status: p, resolved: false })));
    expect(statSync(file).size).toBeGreaterThan(10_000_000);
    report = join(tempDir(), 'report.html');
    const run = await loopwatchInProcess(['scan', dir, '--html', report, '--workers', '0', '--timelines', '20']);
    expect(run.stderr).toContain('HTML report written');
    ({ context, page, requests, problems } = await openWatchedPage(pathToFileURL(report).href, 20_000));
  }, 120_000);

  afterAll(async () => {
    await context?.close();
  });

  const pwned = (): Promise<unknown> => page.evaluate('[window.__lwPwned, document.title]');

  it('should run no script from the data in the page, the table or any timeline', async () => {
    const title = await page.title();
    expect(title).not.toBe('pwned');
    expect(await pwned()).toEqual([undefined, title]);
    const sessions = page.locator('#lw-table button.session');
    const n = await sessions.count();
    expect(n).toBe(PAYLOADS.length);
    for (let i = 0; i < n; i++) {
      await sessions.nth(i).click();
      await expect.poll(() => page.locator('#lw-timeline-title').textContent()).toMatch(/^Timeline: /);
      await page.waitForTimeout(50);
      expect(await pwned()).toEqual([undefined, title]);
    }
    // what the data holds is shown as text, never made elements
    expect(await page.locator('body img, body svg[onload], body iframe, #lw-timeline b, #lw-table b').count()).toBe(0);
    expect(await page.locator('a[href^="javascript:" i]').count()).toBe(0);
    expect(requests).toEqual([pathToFileURL(report).href]);
    expect(problems).toEqual([]);
  }, 60_000);

  it('should show the bidirectional controls as escapes and keep the report small', async () => {
    const text = await page.locator('#lw-table').textContent();
    expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(text).toContain('\\u202e');
    expect(statSync(report).size).toBeLessThan(2_000_000);
  });

  it('should see a payload that runs: the check has teeth', async () => {
    const bare = await context.newPage();
    try {
      await bare.setContent(`<title>t</title>${PAYLOADS[1]}${PAYLOADS[2]}`);
      await expect.poll(() => bare.evaluate('[window.__lwPwned, document.title]')).toEqual([2, 'pwned']);
    } finally {
      await bare.close();
    }
  });
});
