/**
 * The HTML report says what the scan passed over on purpose, as the text summary and `--json` do: Inspect AI
 * samples logged again by a newer log of their task (read once, from the newest), and record kinds the
 * readers do not know (an OpenHands SDK event kind a later SDK adds). Checked in a real browser (Debian's Chromium,
 * through playwright-core), the report opened from disk as a person opens it.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWatchedPage, skipBrowserTests } from './helpers/chromium.js';
import { tempDir } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { scratchDir } from './helpers/trace-files.js';

const spec = (created: string) => ({ eval_id: `e-${created}`, run_id: `r-${created}`, created, task: 'guess', task_id: 'T1' });
const sample = (id: string, cmds: readonly string[]) => ({
  id,
  epoch: 1,
  messages: cmds.flatMap((cmd, i) => [
    { role: 'assistant', content: 'Trying.', tool_calls: [{ id: `c${i}`, function: 'bash', arguments: { cmd } }] },
    { role: 'tool', tool_call_id: `c${i}`, content: 'no' },
  ]),
});
const jsonLog = (status: string, created: string, samples: readonly unknown[]) => JSON.stringify({ version: 2, status, eval: spec(created), plan: {}, samples }, null, 2);

describe.skipIf(skipBrowserTests)('the HTML report says what was passed over', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[] = [];

  beforeAll(async () => {
    const { dir, write } = scratchDir('report-passed-over');
    write('logs/a.json', jsonLog('error', '2025-10-06T10:00:00Z', [sample('0', ['ls']), sample('1', ['pwd'])]));
    write('logs/b.json', jsonLog('success', '2025-10-06T11:00:00Z', [sample('0', ['ls']), sample('1', ['pwd', 'make'])]));
    write('sdk.jsonl', [
      { id: 'e1', timestamp: 't', source: 'agent', thought: [], action: { command: 'ls', kind: 'TerminalAction' }, tool_name: 'terminal', tool_call_id: 'c1', tool_call: { id: 'c1', name: 'terminal', arguments: '{}' }, llm_response_id: 'r1', kind: 'ActionEvent' },
      { id: 'e2', timestamp: 't', source: 'agent', title: 'Plan', kind: 'ACPPlanEvent' },
    ].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const out = join(tempDir(), 'report.html');
    const run = await loopwatchInProcess(['scan', dir, '--html', out, '--workers', '0']);
    expect(run.stderr).toContain('HTML report written');
    ({ context, page, problems } = await openWatchedPage(pathToFileURL(out).href, 10_000, { console: true }));
  }, 30_000);

  afterAll(async () => {
    await context?.close();
  });

  it('should say how many samples were read once from a newer log and how many record kinds were not known', async () => {
    const warnings = await page.locator('#lw-warnings p.warning').allTextContents();
    expect(warnings).toContain("2 Inspect AI samples were passed over: logged again by a newer log of the same task (eval-retry), each read once, from the newest log (the logs are named on the scan's stderr).");
    expect(warnings).toContain("1 record kind the readers do not know was passed over: calls it may hold are not counted here (named on the scan's stderr).");
    expect(problems).toEqual([]);
  });
});
