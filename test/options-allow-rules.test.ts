/**
 * The `allow` option: calls meant to repeat are recorded like any call but never warned, asked about,
 * denied or stopped for repeating; its patterns, which come from files, are refused when they could take
 * more than linear time, and a long command is read up to MAX_COMMAND_TEXT characters.
 */
import { describe, expect, it } from 'vitest';
import { type LiveAction, LoopDetector, OptionRangeError, OptionTypeError } from '../src/index.js';
import { MAX_COMMAND_TEXT, MAX_PATTERN, allowedToRepeat, commandText, resolveAllow, unsafePattern } from '../src/options/allow-rules.js';

const tsc = { tool: 'Bash', args: { command: 'npx tsc --noEmit' } };
const failed = { error: "src/a.ts(3,1): error TS2304: Cannot find name 'x'." };

let n = 0;
function step(d: LoopDetector, call: { tool: string; args: unknown }, outcome: { result?: unknown; error?: unknown }): LiveAction {
  const id = `c${n++}`;
  const p = d.propose({ id, ...call });
  if (p.action !== 'deny' && p.action !== 'stop') d.record({ id, ...call, ...outcome });
  return p.action;
}

describe('the allow option', () => {
  it('should never warn, deny or stop an allowed call for repeating, and still record it', () => {
    const allowed = new LoopDetector({ allow: [{ tool: 'Bash', command: '^npx tsc --noEmit$' }] }, 's');
    const plain = new LoopDetector({}, 's');
    const a = Array.from({ length: 8 }, () => step(allowed, tsc, failed));
    const b = Array.from({ length: 8 }, () => step(plain, tsc, failed));
    expect(a).toEqual(Array(8).fill('allow'));
    expect(b).toContain('deny');
    expect(allowed.stats().checks).toBe(8); // recorded: the calls are in the session's history
    expect(allowed.check({ ...tsc, error: failed.error })).toBeNull();
    allowed.dispose();
    plain.dispose();
  });

  it('should match a rule by tool, by command (searched, anchors as written), or both', () => {
    const rules = resolveAllow([{ tool: 'job_status' }, { command: '^npm (run )?test\\b' }, { tool: 'Bash', command: 'pytest' }]);
    expect(allowedToRepeat(rules, 'job_status', { id: 1 })).toBe(true);
    expect(allowedToRepeat(rules, 'run_shell_command', { command: 'npm run test -- --watch=false' })).toBe(true);
    expect(allowedToRepeat(rules, 'Bash', { command: 'echo npm test' })).toBe(false);
    expect(allowedToRepeat(rules, 'Bash', { command: 'python -m pytest -q' })).toBe(true);
    expect(allowedToRepeat(rules, 'shell', { command: ['npm', 'test'] })).toBe(true); // an argv array, joined
    expect(allowedToRepeat(rules, 'Bash', '{"command":"npm test"}')).toBe(true); // args as JSON text
    expect(allowedToRepeat(rules, 'Read', { file_path: 'npm test' })).toBe(false);
  });

  it('should read a command up to MAX_COMMAND_TEXT characters', () => {
    const long = `${'x'.repeat(MAX_COMMAND_TEXT)}npm test`;
    expect(commandText({ command: long })).toHaveLength(MAX_COMMAND_TEXT);
    expect(allowedToRepeat(resolveAllow([{ command: 'npm test' }]), 'Bash', { command: long })).toBe(false);
  });

  it('should refuse rules that name nothing, unknown keys, and patterns that are not regular expressions', () => {
    expect(() => resolveAllow({})).toThrow(OptionTypeError);
    expect(() => resolveAllow([{}])).toThrow(/options\.allow\[0\] must be a rule naming a tool, a command, or both, received an empty rule/);
    expect(() => resolveAllow([{ tool: 'Bash', cmd: 'x' }])).toThrow(/options\.allow\[0\]\.cmd is not a known option; known options of options\.allow\[0\]: tool, command/);
    expect(() => resolveAllow([{ command: '(' }])).toThrow(/options\.allow\[0\]\.command must be a regular expression \(JavaScript syntax\)/);
    expect(() => resolveAllow([{ command: 'x'.repeat(MAX_PATTERN + 1) }])).toThrow(OptionRangeError);
    expect(() => new LoopDetector({ allow: [{ command: 3 }] } as never)).toThrow(/options\.allow\[0\]\.command must be a string, received 3 \(number\)/);
  });

  it('should refuse patterns whose matching time could grow faster than the text', () => {
    for (const [p, why] of [
      ['(a+)+$', 'a quantified group that holds a quantifier'],
      ['^(a|ab)*c', 'a quantified group that holds a quantifier or an alternation'],
      ['((ab)*x)+', 'a quantified group'],
      ['(\\w+)\\1', 'a backreference'],
      ['^(?=npm)npm', 'a lookaround'],
      ['(?<!x)y', 'a lookaround'],
    ] as const) {
      expect(() => resolveAllow([{ command: p }]), p).toThrow(new RegExp(`must match in linear time, but .* has ${why}`));
    }
    for (const p of ['^npm (run )?test\\b', '^(npm|pnpm) test', '[(+*]+\\(a+\\)', 'a{2,5}b', '^git (status|diff)( |$)']) expect(() => resolveAllow([{ command: p }]), p).not.toThrow();
    // without V8's linear-time engine, at most two unbounded quantifiers (polynomial backtracking)
    expect(unsafePattern('.*a.*b.*c', false)).toBe('more than two unbounded quantifiers');
    expect(unsafePattern('.*a.*b.*c', true)).toBeNull();
  });

  it('should match an accepted pattern in time linear in the text', () => {
    const [rule] = resolveAllow([{ command: '.*a.*b.*c.*d$' }]);
    const text = 'ab'.repeat(MAX_COMMAND_TEXT / 2);
    const t0 = performance.now();
    expect(allowedToRepeat([rule as never], 'Bash', { command: text })).toBe(false);
    // a backtracking engine takes O(n^4) steps here (minutes); linear time is well under a second
    expect(performance.now() - t0).toBeLessThan(5000);
  });
});
