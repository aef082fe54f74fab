/**
 * The very call run before, proposed again after the agent rewrote the file it reads, checks new work even
 * when the signal is one of similar calls (src/policy/evidence-screen.ts's checksNewChange, RERUN_FUZZY_KINDS;
 * quiet46). The shape of a real Claude Code session of holdout8 (trimmed, anonymised): a CORS rule applied
 * with `aws s3api put-bucket-cors --cors-configuration file://cors-prod.json`, refused, the file written
 * anew, the same command refused again, the file rewritten, the same command proposed a third time: warned
 * `semantic` ("a paraphrase of 2 of the last 30 actions") at that proposal. Both engines, two-phase; the same
 * command proposed with nothing written since its last run, and a rewrite-and-retry that goes on, still warned.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, liveActions } from './helpers/verdicts.js';

const FILE = '/home/dev/app/cors-prod.json';
/** The command (`text`: the agent's words before it, unused but for the shape), refused with `error` or not. */
const apply = (text: string, error?: string): ToolEvent => ({
  tool: 'Bash',
  args: { command: 'aws s3api put-bucket-cors --bucket app-photos-prod --cors-configuration file://cors-prod.json' },
  ...(error === undefined ? { result: '' } : { result: error, error }),
  ...(text === '' ? {} : { text }),
});
const write = (n: number): ToolEvent => ({
  tool: 'Write',
  args: { file_path: FILE, content: `{\n  "CORSRules": [\n    { "AllowedMethods": ["GET", "PUT"], "AllowedOrigins": ["https://app.example"], "MaxAgeSeconds": ${3000 + n} }\n  ]\n}\n` },
  result: `The file ${FILE} has been updated.`,
});
const INVALID = "Error parsing parameter '--cors-configuration': Invalid JSON:\n[\n    {\n        \"AllowedHeaders\": [\"*\"],\n";
const WILDCARD = 'An error occurred (InvalidRequest) when calling the PutBucketCors operation: ExposeHeader "x-amz-meta-*" contains wildcard.';

/** Up to the third proposal of the command: its two runs refused, the file written before each. */
const before: ToolEvent[] = [
  { tool: 'Bash', args: { command: 'aws s3api create-bucket --bucket app-photos-prod --region us-west-2' }, result: '{ "Location": "http://app-photos-prod.s3.amazonaws.com/" }' },
  { tool: 'Bash', args: { command: 'aws s3api put-bucket-versioning --bucket app-photos-prod --versioning-configuration Status=Enabled' }, result: '' },
  { tool: 'Bash', args: { command: 'aws s3api put-bucket-cors --bucket app-photos-prod --cors-configuration file://cors.json' }, result: INVALID, error: INVALID, text: 'Versioning enabled.\n\n### Step 3: Apply CORS Configuration' },
  { tool: 'Read', args: { file_path: '/home/dev/app/cors.json' }, result: '     1→[\n     2→    {\n', text: 'The CORS config needs updating for production. Let me create the correct one:' },
  { ...write(0), result: `File created successfully at: ${FILE}`, text: 'Let me update the CORS config for your production domain:' },
  apply('', INVALID),
  { ...write(1), text: 'Let me fix the CORS configuration.' },
];

/** `events` each in a model turn of its own, given at the proposal too (as the replays of real sessions do). */
const turns = (events: readonly ToolEvent[]): ToolEvent[] => events.map((e, round) => ({ ...e, round }));
const live = (events: readonly ToolEvent[], engine: (typeof ENGINES)[number]): string[] => liveActions(turns(events), engine, { labelled: true, roundAtProposal: true });

describe.each(ENGINES)('the same command proposed after the file it reads was rewritten (%s engine)', (engine) => {
  it('should not be warned as a paraphrase of its earlier runs', () => {
    expect(live([...before, apply('', WILDCARD), write(2), apply('Now the wildcard is out:')], engine)).toEqual([]);
  });

  it('should still be warned when nothing was written since its last run', () => {
    const again = [...before.slice(0, 6), apply('', INVALID), apply('', INVALID)];
    expect(live(again, engine).length).toBeGreaterThan(0);
  });

  it('should still be warned when the rewrite and retry go on', () => {
    const long = [...before];
    for (let n = 2; n < 8; n++) long.push(apply('', WILDCARD), write(n));
    expect(live(long, engine).length).toBeGreaterThan(0);
  });
});
