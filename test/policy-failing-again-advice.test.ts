/**
 * A `failing_again` verdict's advice is true of what it saw (quiet46): the losing streak (call after call
 * failing, each another one: src/policy/losing-streak.ts) ended "Stop repeating it" although no call was
 * repeated. Its kind now says "None of these tries has worked"; other kinds keep their advice, and the
 * report's key says what the kind covers. Both engines.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector, type ToolEvent } from '../src/index.js';
import { FAILING_AGAIN_DETECTOR } from '../src/policy/failing-again.js';
import { LOSING_STREAK } from '../src/policy/losing-streak.js';
import { KIND_MEANINGS } from '../src/report/kind-meanings.js';
import { ENGINES } from './helpers/verdicts.js';

/** What the parser said of each try: another message each time. */
const SAID = [
  'Unexpected token "}" in expression or statement.',
  "The string is missing the terminator: '.",
  'You must provide a value expression following the "-like" operator.',
  'The token "||" is not a valid statement separator in this version.',
  'Missing ")" in method call.',
  'The term "from" is not recognized as the name of a cmdlet, function, script file, or operable program.',
  'Missing closing "}" in statement block or type definition.',
  'Array index expression is missing or not valid.',
];

/** Try `i`: another command, another error, its own model turn (trimmed from a real streak of parser errors). */
const attempt = (i: number): ToolEvent => ({
  tool: 'shell',
  args: { command: ['powershell', '-Command', `Select-String -Path src/*.ts -Pattern "animations${'\\'.repeat(i % 3)}" # try ${i}`] },
  error: `At line:1 char:${40 + 13 * i}\n${SAID[i % SAID.length] as string}\n    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException\n`,
  round: i,
});

describe.each(ENGINES)('failing_again advice (%s engine)', (engine) => {
  it('should not tell the agent to stop repeating calls that each differed', () => {
    const d = new LoopDetector({ engine });
    try {
      const vs = Array.from({ length: LOSING_STREAK }, (_, i) => d.check(attempt(i)));
      const v = vs[LOSING_STREAK - 1];
      expect(v?.kind).toBe(FAILING_AGAIN_DETECTOR);
      expect(v?.message).not.toContain('Stop repeating it');
      expect(v?.message).toContain('None of these tries has worked: step back');
    } finally {
      d.dispose();
    }
  });

  it('should keep the other kinds\' advice', () => {
    const d = new LoopDetector({ engine });
    try {
      const same: ToolEvent = { tool: 'Read', args: { file_path: 'src/a.ts' }, result: 'export const a = 1;\n' };
      const vs = Array.from({ length: 6 }, () => d.check(same));
      const v = vs.find((x) => x !== null);
      expect(v?.kind).not.toBe(FAILING_AGAIN_DETECTOR);
      expect(v?.message).toContain('Stop repeating it');
    } finally {
      d.dispose();
    }
  });
});

describe('failing_again in the report key', () => {
  it('should name the streak of different calls too', () => {
    expect(KIND_MEANINGS.failing_again).toContain('call after call failing, each another one');
  });
});
