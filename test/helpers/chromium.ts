/**
 * The real browser of the report tests: Debian's chromium-headless-shell (or chromium), driven by
 * playwright-core; never a browser playwright downloads. `chromiumBinary` is null when none is installed:
 * then the browser tests skip, saying so loudly, except under CI (`CI` set), where they run and fail, since
 * `.ci/run` installs the browser (scripts/install-browser.sh).
 */
import { existsSync } from 'node:fs';
import { type BrowserContext, type Page, chromium } from 'playwright-core';
import { tempFolder } from './temp-folder.js';

/** Where Debian puts the browser, most fitting first; LOOPWATCH_CHROMIUM names another. */
const CANDIDATES = ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium-headless-shell', '/usr/lib/chromium/chromium', '/usr/bin/chromium'];

/** The browser binary, or null. */
export const chromiumBinary: string | null = [process.env.LOOPWATCH_CHROMIUM, ...CANDIDATES].find((c): c is string => c !== undefined && c !== '' && existsSync(c)) ?? null;

/** Whether the browser tests skip: no browser, and not in CI. */
export const skipBrowserTests = chromiumBinary === null && process.env.CI === undefined;

if (skipBrowserTests) {
  process.stderr.write('\n*** BROWSER TESTS SKIPPED: no Chromium found (run: bash scripts/install-browser.sh, or set LOOPWATCH_CHROMIUM) ***\n\n');
}

/** The flags the browser runs with: headless, no sandbox (CI runs as root), nothing fetched in the background. */
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A browser with a fresh profile in a temporary folder (removed when the test file ends), a laptop-sized window; `args`: more flags. */
export async function launchChromium(viewport = { width: 1366, height: 768 }, args: readonly string[] = []): Promise<BrowserContext> {
  if (chromiumBinary === null) throw new Error('no Chromium installed: scripts/install-browser.sh installs Debian\'s chromium-headless-shell (.ci/run runs it)');
  return chromium.launchPersistentContext(tempFolder('chromium'), {
    executablePath: chromiumBinary,
    headless: true,
    args: [...CHROMIUM_FLAGS, ...args],
    viewport,
    timeout: 15_000,
  });
}

/** A page opened in a fresh browser, with every request it made and every problem it met (dialogs, page errors). */
export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  /** Every URL the page asked for. */
  requests: string[];
  /** A line per dialog (dismissed), page error and, when `console` was asked for, console error or warning. */
  problems: string[];
}

/**
 * Launches a browser ({@link launchChromium}), opens `url` in a new page that records its requests and
 * problems, and waits until the report says it is ready (`body[data-ready="true"]`) within `readyMs`.
 */
export async function openWatchedPage(url: string, readyMs: number, o: { console?: boolean } = {}): Promise<WatchedPage> {
  const context = await launchChromium();
  const page = await context.newPage();
  const w: WatchedPage = { context, page, requests: [], problems: [] };
  page.on('request', (r) => w.requests.push(r.url()));
  page.on('dialog', (d) => {
    w.problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('pageerror', (e) => w.problems.push(`page error: ${e.message}`));
  if (o.console === true) {
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') w.problems.push(`console ${m.type()}: ${m.text()}`);
    });
  }
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: readyMs });
  return w;
}
