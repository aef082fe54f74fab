/**
 * A tool refusing a call's arguments is no dead end's wall (issue 27; src/text/invalid-args.ts,
 * src/live/dead-end-wall.ts): a Gemini CLI session asked the user through `ask_user` with headers its
 * schema refused ("params/questions/0/header must NOT have more than 16 characters"), shortening the header
 * each time; the call with a header short enough was denied as another knock on the wall, in a real devset
 * session. Each new attempt answers the error, so the wall does not stop it; a dead end of the world's
 * (a page that does not exist) still does.
 */
import { describe, expect, it } from 'vitest';
import { CONFIG_PRESETS, LoopDetector } from '../src/index.js';
import type { LiveCall, LiveDecision, LoopDetectorOptions } from '../src/index.js';
import { refusedArgs } from '../src/text/invalid-args.js';

/** What Gemini CLI's ask_user answered a header over its limit. */
const TOO_LONG = 'params/questions/0/header must NOT have more than 16 characters';

/** An ask_user call with `header`, refused when the header is over 16 characters, answered otherwise. */
const ask = (header: string): LiveCall => ({
  tool: 'ask_user',
  args: { questions: [{ type: 'text', header, question: 'The debug logs show the secret is empty. Paste the config as strict JSON?' }] },
  ...(header.length > 16 ? { error: TOO_LONG } : { result: '{"answers":{"0":"done"}}' }),
});

/** Headers the model tried, shorter each time, the last one accepted. */
const HEADERS = ['GitHub Secret Empty Again', 'GitHub Secret Empty', 'Secret Content Fix', 'Github Secret Fix', 'Secret Fix'];

/** Proposes then records each call (ids `c<i>`), a blocked one not recorded; the proposals' decisions. */
function run(d: LoopDetector, calls: readonly LiveCall[]): LiveDecision[] {
  return calls.map((call, i) => {
    const proposal = d.propose({ ...call, id: `c${i}` });
    if (proposal.action !== 'deny' && proposal.action !== 'stop') d.record({ ...call, id: `c${i}` });
    return proposal;
  });
}

describe.each(['wasm', 'reference'] as const)('a tool refusing the args is no wall (%s engine)', (engine) => {
  describe.each([
    ['the shipped default', (): LoopDetectorOptions => (CONFIG_PRESETS.default as (e: LoopDetectorOptions) => LoopDetectorOptions)({ engine })],
    ['the built-in options', (): LoopDetectorOptions => ({ engine })],
  ])('%s', (_name, options) => {
    it('should not deny the call that answers four refusals of its args', () => {
      const d = new LoopDetector(options(), 's');
      try {
        const decisions = run(d, HEADERS.map(ask));
        expect(decisions.map((x) => x.action)).not.toContain('deny');
        expect(decisions.flatMap((x) => x.verdict?.signals.map((s) => s.detector) ?? [])).not.toContain('dead_end_again');
      } finally {
        d.dispose();
      }
    });

    it('should still deny another search for a page that does not exist, four searches failing before it', () => {
      const d = new LoopDetector(options(), 's');
      try {
        const pages = ['Wallace and Gromit', 'Thrill-O-Matic', 'Aardman Animations', 'Creature Comforts', 'Nick Park'];
        const calls = pages.map((query): LiveCall => ({ tool: 'Search', args: { query }, result: `Could not find [${query}]. Similar: ['Pontotoc County, Oklahoma', 'KTEN']`, error: `Could not find [${query}]` }));
        expect(run(d, calls).map((x) => x.action)).toContain('deny');
      } finally {
        d.dispose();
      }
    });
  });
});

describe('an error refusing the args', () => {
  it('should be told from a failure of the world', () => {
    expect(refusedArgs(TOO_LONG)).toBe(true);
    expect(refusedArgs("params must have required property 'old_string'")).toBe(true);
    expect(refusedArgs('1 validation error for Edit\nold_string\n  Field required [type=missing]')).toBe(true);
    expect(refusedArgs("TypeError: search() missing 1 required positional argument: 'query'")).toBe(true);
    expect(refusedArgs('Expected string, received number')).toBe(true);
    expect(refusedArgs('Could not find [Nick Park]')).toBe(false);
    expect(refusedArgs('fatal: not a git repository (or any of the parent directories): .git')).toBe(false);
    expect(refusedArgs('Failed to edit, 0 occurrences found for old_string in ci-cd.yml')).toBe(false);
    expect(refusedArgs(`${'x'.repeat(10_000)} must NOT have more than 16 characters`)).toBe(false);
  });
});
