/**
 * A page fetch answered 403, 404 or 410 is a probe that found nothing, not the agent's wall (quiet15). Claude
 * Code research subagents guess where a page lives and fetch what a search named: holdout3 adc23e0a's
 * subagent fetched `github.com/openclaw/skills`, its blob, its raw file, a mirror (404 each), then a
 * registry closed to it (lobehub.com, 403), and found the skill through clawhub.ai's API; its dead end "the
 * same error 7 times" warned at #18 and broke it at #39, one-phase; holdout7 3288a74e's sidechain checking
 * citations hit publishers that refuse fetchers (403). A fetch tool's failure saying only
 * "Request failed with status code 404" marks the call CallFact.SILENT (src/text/missing-page.ts, read in
 * outcome-facts.ts), as a read of a missing file is: different such fetches are no dead end. The same page
 * fetched again and again still fires (the repeat detectors), and so does the same status line from the
 * agent's own program run in a shell.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { TOOL_LOOK, fetchFoundNothing } from '../src/text/missing-page.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const status = (code: number): string => `Request failed with status code ${code}`;
/** A WebFetch of `url` the site answered with HTTP `code` (Claude Code gives the text as error and result). */
const refused = (url: string, code: number): ToolEvent => ({ tool: 'WebFetch', args: { url, prompt: 'What is on this page? Is there a SKILL.md?' }, result: status(code), error: status(code) });
const fetched = (url: string, page: string): ToolEvent => ({ tool: 'WebFetch', args: { url, prompt: 'What is on this page? Is there a SKILL.md?' }, result: page });
const search = (query: string, hits: string): ToolEvent => ({ tool: 'WebSearch', args: { query }, result: `Web search results for query: "${query}"\n${hits}` });

/** Research on the web: guessed pages not there, a registry that refuses fetchers, pages found between. */
const RESEARCH: ToolEvent[] = [
  search('openclaw skills repository solo-leveling', 'Links: openclaw/skills, clawhub.ai, lobehub.com/skills'),
  refused('https://github.com/openclaw/skills', 404),
  refused('https://github.com/openclaw/skills/blob/main/skills/anmolmoses/solo-leveling/SKILL.md', 404),
  refused('https://raw.githubusercontent.com/openclaw/skills/main/skills/anmolmoses/solo-leveling/SKILL.md', 404),
  refused('https://skillsmp.com/skills/openclaw-skills-solo-leveling-skill-md', 404),
  refused('https://github.com/openclaw/skills/tree/master/skills/anmolmoses/solo-leveling', 404),
  fetched('https://github.com/openclaw/clawhub', '## ClawHub is the public skill registry for OpenClaw ...'),
  search('skill-vetter openclaw skill', 'Links: lobehub.com/skills/openclaw-skills-skill-vetter, github.com/UseAI-pro/openclaw-skills-security'),
  refused('https://lobehub.com/skills/openclaw-skills-skill-vetter', 403),
  fetched('https://github.com/UseAI-pro/openclaw-skills-security', '## Repository structure: skills/skill-vetter/SKILL.md ...'),
  refused('https://lobehub.com/skills', 403),
  fetched('https://clawhub.ai/search?q=solo-leveling', 'No results found for "solo-leveling".'),
  refused('https://lobehub.com/skills/search/solo-leveling', 403),
  refused('https://www.npmjs.com/package/opencode-arise', 403),
  refused('https://clawhub.ai/api/skills', 404),
  fetched('https://clawhub.ai/api/v1/search?q=solo-leveling', '{"results":[{"slug":"solo-leveling","displayName":"Solo Leveling — Life RPG"}]}'),
  refused('https://clawhub.ai/api/v1/download/solo-leveling', 404),
  refused('https://clawhub.ai/api/v1/download/skill-vetter', 410),
  fetched('https://clawhub.ai/api/v1/openapi.json', '## Endpoints: GET /api/v1/skills/{slug}/file?path=SKILL.md ...'),
  fetched('https://clawhub.ai/api/v1/skills/solo-leveling/file?path=SKILL.md', '# Solo Leveling — Life RPG ...'),
];

/** The same page fetched again and again, not there each time. */
const SAME = Array.from({ length: 6 }, () => refused('https://github.com/openclaw/skills/blob/main/skills/anmolmoses/solo-leveling/SKILL.md', 404));

/** The agent's own API client, run in a shell, failing on its endpoints with the same words. */
const OWN_CLIENT: ToolEvent[] = ['users', 'orders', 'items', 'carts', 'payments', 'invoices'].map((route) => ({
  tool: 'Bash',
  args: { command: `node scripts/api-check.js /api/${route}` },
  result: `Exit code 1\n${status(404)}`,
  error: `Exit code 1\n${status(404)}`,
}));

describe('a page fetch that found nothing', () => {
  it('should read a fetch tool answered 403, 404 or 410, and nothing else, as one', () => {
    for (const tool of ['WebFetch', 'web_fetch', 'mcp__fetch__fetch', 'mcp__workspace__web_fetch']) {
      for (const code of [403, 404, 410]) expect(fetchFoundNothing(tool, status(code), status(code)), `${tool} ${code}`).toBe(true);
    }
    expect(fetchFoundNothing('WebFetch', status(404), undefined)).toBe(true);
    expect(fetchFoundNothing('WebFetch', `Error: ${status(404)}`, undefined)).toBe(true);
  });

  it('should read other statuses, other tools and longer failures as before', () => {
    for (const code of [400, 401, 429, 500]) expect(fetchFoundNothing('WebFetch', status(code), status(code)), String(code)).toBe(false);
    expect(fetchFoundNothing('Bash', status(404), status(404))).toBe(false);
    expect(fetchFoundNothing('prefetch', status(404), undefined)).toBe(false);
    expect(fetchFoundNothing(`mcp__${'x'.repeat(TOOL_LOOK)}__fetch`, status(404), undefined)).toBe(false);
    expect(fetchFoundNothing('WebFetch', `${status(404)}\nat fetchPage (client.js:12)`, undefined)).toBe(false);
    expect(fetchFoundNothing('WebFetch', status(404), 'Exit code 1\nTraceback ...')).toBe(false);
  });
});

describe.each(ENGINES)('web research meeting pages not there or refused (%s engine)', (engine) => {
  it('should not flag different fetches that found nothing, one- or two-phase', () => {
    expect(flaggedActions(RESEARCH, engine)).toEqual([]);
    expect(liveActions(RESEARCH, engine)).toEqual([]);
  });

  it('should still flag the same page fetched again and again', () => {
    expect(flaggedActions(SAME, engine)).toContain('break');
    expect(liveActions(SAME, engine)).toContain('deny');
  });

  it("should still flag the agent's own program failing with the same words", () => {
    expect(flaggedActions(OWN_CLIENT, engine)).toContain('warn');
  });
});
