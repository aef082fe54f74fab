/**
 * waitsFirst (outcome-facts.ts: a shell command that waits before it looks, or only waits) answers as its
 * plain definition, the two expressions tried on every command, although most commands now skip them: any
 * white space before the command (Unicode spaces, line ends, the BOM), `bash -lc` / `sh -c` / `zsh -c`
 * around it, letters in either case, and commands of every shape the agents send.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { waitsFirst } from '../src/policy/outcome-facts.js';
import { commandText } from '../src/policy/workspace-changes.js';
import { onlyWaits } from '../src/text/bare-wait.js';

/** The definition as it was: both expressions on every command. */
function plainWaitsFirst(args: unknown): boolean {
  const c = commandText(args)?.replace(/^(?:bash|sh|zsh)\s+-l?c\s+/, '');
  return c !== undefined && (/^\s*(?:sleep\s+\d+(?:\.\d+)?[smh]?\s*(?:&&|;)|timeout\s+\d+\s+\S*(?:wait|watch))/.test(c) || onlyWaits(c));
}

const PIECES = [
  'sleep', 'SLEEP', 'Sleep', 'start-sleep', 'Start-Sleep', 'timeout', 'TIMEOUT', 'timeout.exe', 'ſleep', 'ｓleep', 'slee', 'tim',
  ' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2028', '\u3000', '\ufeff', '\u200b', '\v', '\f',
  '30', '0.5', '5s', '2m', '1h', '/t', '/nobreak', '>', 'nul', '-s', '-seconds', '-ms', ';', '&&', '#', ' # wait',
  'gh run list', 'kubectl wait', 'watch', 'wait', 'ls', 'cd /srv', 'cat a.txt', 'echo', 'bash', 'sh', 'zsh', '-c', '-lc', '"', "'",
];

const SPACES = ['', ' ', '  ', '\t', '\n', '\u00a0', '\u2028', '\u3000', '\ufeff', '\u200b', '\v'];
const VERBS = ['sleep', 'SLEEP', 'Sleep', 'start-sleep', 'Start-Sleep', 'timeout', 'Timeout', 'TIMEOUT', 'timeout.exe', 'ſleep', 'ｓleep', 'ls', 'cd', 'echo'];
const TAILS = ['', ';', ' ;', ' && gh run list', '; ls', ' kubectl-wait', ' x/watch', ' # wait', ' /nobreak', ' /nobreak > nul', ' sleep 3'];

/** Random pieces, and commands shaped like the waits (white space, a verb, white space, a number, a unit, a tail). */
const command = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 10 }).map((xs) => xs.join('')),
  fc
    .tuple(fc.constantFrom(...SPACES), fc.constantFrom(...VERBS), fc.constantFrom(' ', '  ', '\t', ' -s ', ' /t ', ''), fc.constantFrom('30', '0.5', '5', ''), fc.constantFrom('', 's', 'm', 'h'), fc.constantFrom(...TAILS))
    .map((xs) => xs.join('')),
);

describe('waitsFirst', () => {
  it('should give its plain definition for commands built from the edges', () => {
    fc.assert(
      fc.property(fc.oneof(command, fc.tuple(fc.constantFrom('bash -lc ', 'sh -c ', 'zsh -c ', 'bash  -c  ', 'bash -c', 'Bash -c '), command).map(([p, c]) => p + c)), (c) => {
        expect(waitsFirst({ command: c })).toBe(plainWaitsFirst({ command: c }));
        expect(waitsFirst({ cmd: ['bash', '-lc', c] })).toBe(plainWaitsFirst({ cmd: ['bash', '-lc', c] }));
      }),
      { numRuns: 3000 },
    );
  });

  it('should find the commands that wait, whatever comes before them', () => {
    for (const c of ['sleep 30 && gh run list', '  sleep 5; ls', '\ufeffsleep 5', '\u3000timeout 30 kubectl-wait', 'Start-Sleep -s 10', 'TIMEOUT /t 5 /nobreak > nul', 'bash -lc sleep 30', 'sh -c  \tsleep 2m']) {
      expect(waitsFirst({ command: c })).toBe(true);
      expect(plainWaitsFirst({ command: c })).toBe(true);
    }
    for (const c of ['ls; sleep 30', 'echo sleep 30', 'ſleep 30', '', 'cd /srv && sleep 3']) expect(waitsFirst({ command: c })).toBe(plainWaitsFirst({ command: c }));
    expect(waitsFirst({ path: 'a' })).toBe(false);
    expect(waitsFirst('sleep 30')).toBe(false);
  });
});
