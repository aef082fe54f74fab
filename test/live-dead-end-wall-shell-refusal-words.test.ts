/**
 * A shell command's output cannot say "args refused" (src/policy/outcome-facts.ts, src/text/invalid-args.ts):
 * the words of a tool refusing its args ("Invalid patch: ", "invalid arguments") end a dead end's wall
 * (src/live/dead-end-wall.ts), which is right for a schema or a patch parser, but a failing shell command's
 * output is its program's, which a repository's script words as it likes. A test script that prints
 * "Invalid patch: " first made eight failing `npm test` runs in a row never denied (semantic warnings only);
 * they are denied at the fifth as the same runs without those words are.
 */
import { describe, expect, it } from 'vitest';
import { CONFIG_PRESETS, LoopDetector } from '../src/index.js';
import type { LiveCall, LoopDetectorOptions } from '../src/index.js';

/** The runs an agent tries against one failing test suite, each a little different. */
const RUNS = ['npm test', 'npm test -- --runInBand', 'npm test -- -t config', 'npm test -- --verbose', 'npm test -- --ci', 'npm test -- --no-cache', 'npm test -- -i', 'npm test -- --bail'];

/** The suite's failure, `head` printed first by the repository's script. */
const failure = (head: string): string => `${head}Error: Cannot find module './build/config.json'\n  at Module._resolveFilename (node:internal/modules/cjs/loader:1140:15)\nExit code 1`;

/** The proposals' actions when every run fails with `error` (a blocked one is not run). */
function actions(options: LoopDetectorOptions, error: string): string[] {
  const d = new LoopDetector(options, 's');
  try {
    return RUNS.map((command, i) => {
      const call: LiveCall = { tool: 'Bash', args: { command }, error, id: `c${i}` };
      const p = d.propose(call);
      if (p.action !== 'deny' && p.action !== 'stop') d.record(call);
      return p.action;
    });
  } finally {
    d.dispose();
  }
}

describe.each(['wasm', 'reference'] as const)('a shell command printing a refusal of args (%s engine)', (engine) => {
  const options = (): LoopDetectorOptions => (CONFIG_PRESETS.default as (e: LoopDetectorOptions) => LoopDetectorOptions)({ engine });

  it.each(['Invalid patch: ', 'invalid arguments\n', 'Invalid params: '])('should still deny failing test runs whose output begins %j', (head) => {
    const plain = actions(options(), failure(''));
    expect(plain.indexOf('deny')).toBeGreaterThan(0);
    expect(actions(options(), failure(head))).toEqual(plain);
  });

  it('should still end the wall at an args refusal of a tool that is no shell', () => {
    const d = new LoopDetector(options(), 's');
    try {
      const decisions = ['Header number one too long', 'Header two too long', 'Header 3 too long', 'Header 4 too long', 'Short'].map((header, i) => {
        const call: LiveCall = { tool: 'ask_user', args: { header }, id: `a${i}`, ...(header.length > 16 ? { error: 'params/header must NOT have more than 16 characters' } : { result: 'ok' }) };
        const p = d.propose(call);
        if (p.action !== 'deny' && p.action !== 'stop') d.record(call);
        return p.action;
      });
      expect(decisions).not.toContain('deny');
    } finally {
      d.dispose();
    }
  });
});
