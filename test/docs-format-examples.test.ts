/**
 * Every format's example in docs/cli.md reads as the docs say: scanned from a file, it is detected as its
 * format, gives at least one call and no issue, and forcing the format or gzipping the file reads it the same.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FORMAT_NAMES, type FormatName } from '../src/formats/trace-record.js';
import { collect, scratchDir } from './helpers/trace-files.js';

const DOC = readFileSync(new URL('../docs/cli.md', import.meta.url), 'utf8');
const { write } = scratchDir('docs-examples');

/** The format each example's heading names. */
const FORMAT_OF: Record<string, FormatName> = {
  'loopwatch events': 'events',
  'OpenAI Chat Completions': 'openai-chat',
  'OpenAI Responses API': 'openai-responses',
  'Anthropic Messages': 'anthropic',
  'SWE-agent': 'swe-agent',
  'Claude Code transcripts': 'claude-code',
  'Codex CLI rollouts': 'codex',
  'OpenTelemetry GenAI spans': 'otel',
  'Hook payloads': 'hooks',
  'OpenHands events': 'openhands',
  'OpenHands 1.x events': 'openhands',
  'Gemini CLI chats': 'gemini-cli',
  'ATIF trajectories': 'atif',
  'Inspect AI eval logs': 'inspect',
};

/**
 * The examples of the "Input formats" section: the bold heading and the json block after it, before the next
 * bold heading (a paragraph with no example, as Terminal-Bench 1's or the unknown record kinds', has none).
 */
function examples(): { title: string; text: string }[] {
  const section = DOC.slice(DOC.indexOf('## Input formats'), DOC.indexOf('\n## ', DOC.indexOf('## Input formats') + 1));
  return [...section.matchAll(/^\*\*([^*]+)\*\*(?:(?!\n\*\*)[\s\S])*?```json\n([\s\S]*?)```/gm)].map((m) => ({ title: m[1]!, text: m[2]! }));
}

describe('docs/cli.md format examples', () => {
  it('should have an example for every format (a format read in two shapes has one for each)', () => {
    expect([...new Set(examples().map((e) => FORMAT_OF[e.title]))]).toEqual([...FORMAT_NAMES]);
  });

  for (const { title, text } of examples()) {
    it(`should read the ${title} example as that format, without issues`, async () => {
      const format = FORMAT_OF[title]!;
      const stem = title.replace(/\W+/g, '-');
      const file = write(`${stem}${format === 'swe-agent' ? '.traj' : '.jsonl'}`, text);
      const detected = await collect([file]);
      expect(detected.filter((i) => i.kind === 'issue')).toEqual([]);
      expect(detected.filter((i) => i.kind === 'call').length).toBeGreaterThan(0);
      expect(await collect([file], { format })).toEqual(detected);
      const gz = write(`${stem}${format === 'swe-agent' ? '.traj' : '.jsonl'}.gz`, gzipSync(text));
      const calls = (items: typeof detected) => items.map((i) => (i.kind === 'call' ? [i.event, i.errorInfo] : i.kind));
      expect(calls(await collect([gz]))).toEqual(calls(detected));
    });
  }
});
