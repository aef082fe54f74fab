/**
 * `scan --markdown` renders what it was given as text, one table row per session (issue 30, item 8): GitHub
 * links bare URLs (`https://`, `ftp://`, any case), `www.` and e-mail addresses (also `mailto:`, `xmpp:`)
 * without brackets, and `@name` mentions someone; and a line or paragraph separator (U+2028, U+2029), `\r`
 * or NEL in an id could end a table row. Checked on the Markdown itself and, when it is installed, with
 * cmark-gfm, GitHub's own renderer (`bash scripts/install-cmark-gfm.sh`; skipped with a message otherwise).
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

const IDS = [
  'see https://evil.example/x now',
  'HTTPS://EVIL.EXAMPLE/Y',
  'ftp://files.example/pub',
  'www.evil.example',
  'WWW.Evil.Example/path',
  'mail bob@evil.example',
  'mailto:bob@x.example',
  'xmpp:bob@x.example/r',
  '@octocat please look',
  '<https://angle.example>',
  '[text](https://md.example)',
  'escaped x\\://y',
  'sep a\u2028b',
  'para a\u2029b',
  'cr a\rb',
  'lf a\nb',
  'nel a\u0085b',
  'a|b|c',
] as const;

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const events = writeJsonl(dir, 'events.jsonl', IDS.flatMap((session) => Array.from({ length: 3 }, () => ({ session, tool: `run ${session}`, args: {} }))));
const markdown = (await loopwatchInProcess(['scan', events, '--workers', '0', '--no-progress', '--top', '100', '--markdown'])).stdout;
/** The rows of the worst-sessions table. */
const rows = markdown.slice(markdown.indexOf('### Worst sessions')).split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| ---') && !l.startsWith('| session'));

const cmark = spawnSync('cmark-gfm', ['--version'], { encoding: 'utf8' }).status === 0;
if (!cmark) process.stderr.write('\n*** report-markdown-safety: cmark-gfm not installed (bash scripts/install-cmark-gfm.sh): the rendering checks are skipped ***\n\n');

describe('the Markdown summary', () => {
  it('should keep each session on one row of seven cells', () => {
    expect(rows).toHaveLength(IDS.length);
    for (const r of rows) expect(r.split(/(?<!\\)\|/).length - 2, r).toBe(7);
    expect(markdown).not.toMatch(/[\r\u2028\u2029\u0085]/);
  });

  it('should leave no URL, www. or e-mail address for GitHub to link, and no @mention', () => {
    expect(markdown).not.toMatch(/(?<!\\):\/\//);
    expect(markdown).not.toMatch(/www\./i);
    expect(markdown).not.toMatch(/@(?!\u200d)/);
    // the text still reads the same once rendered
    expect(rows.join('\n').replace(/\\(.)/g, '$1').replace(/\u200d/g, '')).toContain('see https://evil.example/x now');
  });

  it.skipIf(!cmark)('should render as a table without links in cmark-gfm, GitHub\'s renderer', () => {
    const html = spawnSync('cmark-gfm', ['-e', 'table', '-e', 'autolink', '-e', 'strikethrough'], { input: markdown, encoding: 'utf8' }).stdout;
    expect(html).not.toMatch(/<a\s/);
    expect(html).not.toMatch(/<(?!\/?(?:h2|h3|p|table|thead|tbody|tr|th|td|blockquote|strong)\b)[a-z]/i);
    const body = html.slice(html.lastIndexOf('<tbody>'));
    expect(body.match(/<tr>/g)).toHaveLength(IDS.length);
    expect(body).toContain('https://evil.example/x');
    expect(body).toContain('www.evil.example');
  });
});
