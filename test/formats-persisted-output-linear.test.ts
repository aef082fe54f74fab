/**
 * stablePersistedText (src/formats/volatile-output.ts) masks the path of each `<persisted-output>` block
 * of a Claude Code result in time linear in its length: it looked for the block's blank line from each
 * block, reading to the end of a text holding none once per block (3.4 MB of blocks: 9.9 s; a Bash result
 * of a PostToolUse reaches 8 MB, a transcript's line 64 MB). The answers are the old loop's.
 */
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PERSISTED_PATH, stablePersistedText } from '../src/formats/volatile-output.js';
import { runChildScript } from './helpers/child-run.js';

/** The loop before (43c0a5d), the answers to keep. */
function before(text: string): string {
  const SAVED_TO = /((?:Full output|Output has been) saved to:?[ \t]+)[^\r\n]*/g;
  let at = text.indexOf('<persisted-output>');
  if (at < 0) return text;
  let out = '';
  let from = 0;
  while (at >= 0) {
    const end = text.indexOf('</persisted-output>', at);
    const stop = end < 0 ? text.length : end;
    const preview = text.indexOf('\n\n', at);
    const head = preview < 0 || preview > stop ? stop : preview;
    out += text.slice(from, at) + text.slice(at, head).replace(SAVED_TO, `$1${PERSISTED_PATH}`);
    from = head;
    at = end < 0 ? -1 : text.indexOf('<persisted-output>', end);
  }
  return out + text.slice(from);
}

const BLOCK = '<persisted-output>\nOutput too large (42KB). Full output saved to: /tmp/x/tool-results/b1.txt\n</persisted-output>';

describe('stablePersistedText', () => {
  it('should answer as the loop before on random texts of its parts', () => {
    const part = fc.constantFrom('<persisted-output>', '</persisted-output>', '\n', '\n\n', 'Full output saved to: /a b/c.txt', 'Output has been saved to:\t/x', ' saved to: ', 'text', '\r\n');
    fc.assert(
      fc.property(fc.array(part, { maxLength: 30 }), (parts) => {
        const t = parts.join('');
        expect(stablePersistedText(t)).toBe(before(t));
      }),
      { numRuns: 20_000, seed: 27 },
    );
  });

  // 200,000 blocks and no blank line (18 MB): the loop before read to the end from each block (by its
  // 9.9 s at 3.4 MB, about 4 minutes); killed after 60 s. Against integ (43c0a5d): killed, 1 of 2 fail
  it('should end on a text of many blocks and no blank line', { timeout: 120_000 }, async () => {
    const src = fileURLToPath(new URL('../dist/src/formats/volatile-output.js', import.meta.url));
    const run = await runChildScript(
      `import { stablePersistedText } from ${JSON.stringify(src)};
const t = ${JSON.stringify(BLOCK)}.repeat(200000);
const out = stablePersistedText(t);
console.log(out.length, out.split(${JSON.stringify(PERSISTED_PATH)}).length - 1);`,
      60_000,
    );
    expect(run.killed).toBe(false);
    expect(run.code, run.stderr).toBe(0);
    const masked = BLOCK.replace('/tmp/x/tool-results/b1.txt', PERSISTED_PATH);
    expect(run.stdout.trim()).toBe(`${masked.length * 200_000} 200000`);
  });
});
