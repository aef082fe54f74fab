/**
 * command-readings.ts remembers what the outcome facts read of a shell command's text (whether it writes, only
 * prints files, asks for the state, waits first; its program's key). On random commands met again and again,
 * asked in any order, past the memo's bound and its length limit, each answer is what the plain reader gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMMAND_READINGS, CommandReading, READINGS_LOOK, commandReadings, commandReadingsKept } from '../src/policy/command-readings.js';
import { shellCommandWrites } from '../src/policy/workspace-changes.js';
import { commandProgramKey } from '../src/text/command-program.js';
import { queriesStatus } from '../src/text/status-query.js';
import { commandWaitsFirst } from '../src/text/waits-first.js';
import { printsFilesAnyShell } from '../src/text/windows-file-read.js';

/** Commands each reading says yes of, and no. */
const SEEN = [
  'git status', 'git status --short', 'ls -la src', 'cat README.md', 'head -n 20 src/a.ts', 'npm test', 'npx tsc --noEmit',
  'sleep 30 && gh run list', 'bash -lc "sleep 5; ls"', 'timeout 60 kubectl wait pod/x', 'sleep 10', 'Start-Sleep -s 5',
  'echo hi > out.txt', 'sed -i s/a/b/ x.ts', 'rm -rf build', 'git checkout main', 'npm install left-pad', 'python3 - <<EOF\nopen("a", "w")\nEOF',
  'powershell.exe -Command Get-Content a.txt', 'Get-Content -Raw README.md', 'type a.txt', 'gh pr view 3', 'docker ps', 'bd ready',
  'cd /repo && FOO=1 sudo /usr/bin/git log', 'uv run pytest -q', 'kubectl get pods', './scripts/check-status.sh', 'cat dist/a.js',
];

const READINGS = [CommandReading.WRITES, CommandReading.PRINTS_FILES, CommandReading.QUERIES_STATUS, CommandReading.WAITS_FIRST] as const;

/** What each reading says read now, by the plain readers. */
function plain(reading: CommandReading, command: string): boolean {
  if (reading === CommandReading.WRITES) return shellCommandWrites(command);
  if (reading === CommandReading.PRINTS_FILES) return printsFilesAnyShell(command);
  if (reading === CommandReading.QUERIES_STATUS) return queriesStatus(command);
  return commandWaitsFirst(command);
}

/** A command: one seen (often met again), one of them with a random tail, random text, or one about READINGS_LOOK long. */
const command = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SEEN) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...SEEN), fc.string({ maxLength: 12 })).map(([c, t]) => c + t) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...SEEN), fc.integer({ min: READINGS_LOOK - 20, max: READINGS_LOOK + 20 })).map(([c, n]) => (c + ' ' + 'x'.repeat(n)).slice(0, n)) },
);

/** A step: a command and the readings asked of it, in that order (the program's key as -1). */
const step = fc.tuple(command, fc.array(fc.constantFrom(-1, ...READINGS), { minLength: 1, maxLength: 6 }));

describe('a command\'s readings, remembered by its text', () => {
  it('should give what each plain reader gives, asked in any order, met again or not', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        for (const [c, asked] of steps) {
          // a copy of the text, not the same string: the memo compares the text whole
          const r = commandReadings(`${c}`.split('').join(''));
          for (const a of asked) {
            if (a === -1) expect(r.program(), c).toBe(commandProgramKey(c));
            else expect(r.says(a), `${a} ${c}`).toBe(plain(a, c));
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('should keep at most COMMAND_READINGS commands, none longer than READINGS_LOOK, and answer as before past the bound', () => {
    for (let i = 0; i < 3 * COMMAND_READINGS; i++) {
      const c = `git status ${i}`;
      expect(commandReadings(c).says(CommandReading.QUERIES_STATUS)).toBe(queriesStatus(c));
      expect(commandReadingsKept()).toBeLessThanOrEqual(COMMAND_READINGS);
    }
    const long = `cat ${'a'.repeat(READINGS_LOOK)}`;
    expect(commandReadings(long)).not.toBe(commandReadings(long));
    expect(commandReadings(long).says(CommandReading.PRINTS_FILES)).toBe(printsFilesAnyShell(long));
    const short = 'ls -la src';
    expect(commandReadings(short)).toBe(commandReadings(`ls -la ${'src'}`));
  });
});
