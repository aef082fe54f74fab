/**
 * Probes that find nothing are no dead end, whatever a shell's startup prints first. Real sessions (Codex
 * CLI on macOS, spec-kit's implement step) check for one config file after another: `ls Dockerfile*`,
 * `ls .eslintrc*`, `rg --files -g 'eslint.config.*'`, each failing because nothing matched (zsh "no
 * matches found", `ls` "No such file or directory", `rg` exit 1 and no output), and every output begins
 * with the line Homebrew's `shellenv.sh` prints when the sandbox forbids `ps`. With that line read as the
 * failure's words they were a dead end, warned and broken at the 7th probe; as similar calls (`ls X`,
 * `ls Y`) they were semantic warnings. Similar calls that failed in ways that are none of the agent's
 * wall are no stall either: an edit the person declined twice, revised, then made. The stuck twins still fire:
 * the same probe failing again and again, and different commands failing with the same real error after
 * the same startup line.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { failedSilently } from '../src/text/failure-kinds.js';
import { withoutShellNoise } from '../src/text/shell-noise.js';
import { ENGINES, flaggedActions, liveActions, verdictsOf } from './helpers/verdicts.js';

const BREW = '/opt/homebrew/Library/Homebrew/cmd/shellenv.sh: line 18: /bin/ps: Operation not permitted\n';
/** A Codex shell call failing with `out` (the reader gives the output as the error and the result). */
const probe = (cmd: string, out: string): ToolEvent => ({ tool: 'shell_command', args: { command: cmd, workdir: '/Users/max/app' }, result: out, error: out === '' ? true : out });

const probes: ToolEvent[] = [
  probe('ls -1 Dockerfile* 2>/dev/null', BREW),
  probe('ls -1a .eslintignore', `${BREW}ls: .eslintignore: No such file or directory\n`),
  probe('ls -1 .eslintrc*', `${BREW}zsh:1: no matches found: .eslintrc*\n`),
  probe("rg --files -g 'eslint.config.*'", BREW),
  probe("rg --files -g '*.eslintrc*' frontend", BREW),
  probe('ls .prettierrc*', `${BREW}zsh:1: no matches found: .prettierrc*\n`),
  probe("ls -d 'Makefile'", `${BREW}ls: cannot access 'Makefile': No such file or directory\n`),
  probe('ls package.json', `${BREW}ls: package.json: No such file or directory\n`),
];
const DECLINE = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
const edit = (n: number, outcome: Pick<ToolEvent, 'result' | 'error'>): ToolEvent => ({ tool: 'Edit', args: { file_path: '/home/me/dotfiles/flake.nix', old_string: '  outputs =\n    {\n      self,\n      nixpkgs,\n', new_string: `  outputs =\n    {\n      self,\n      nixpkgs,\n      home-manager${n},\n` }, ...outcome });
/** An edit the person declined twice, revised each time, then made. */
const declinedEdits: ToolEvent[] = [
  { tool: 'Read', args: { file_path: '/home/me/dotfiles/flake.nix' }, result: '{ description = "dotfiles"; }' },
  edit(1, { error: DECLINE }),
  edit(2, { error: DECLINE }),
  edit(3, { result: 'The file /home/me/dotfiles/flake.nix has been updated.' }),
];
/** The same probe finding nothing, again and again. */
const sameProbe: ToolEvent[] = Array.from({ length: 6 }, () => probe('ls .prettierrc*', `${BREW}zsh:1: no matches found: .prettierrc*\n`));
/** Different commands hitting the same real error, after the startup line. */
const sameWall: ToolEvent[] = ['make', 'make all', 'make build', 'make -j4', 'make install'].map((c) => probe(c, `${BREW}make: *** No rule to make target \`config.mk'.  Stop.\n`));

describe('what a probe that found nothing says', () => {
  it('should set aside the lines a shell startup prints, at the start only', () => {
    expect(withoutShellNoise(`${BREW}src/a.ts\n`)).toBe('src/a.ts\n');
    expect(withoutShellNoise('Now using node v18.20.5 (npm v10.8.2)\nok\n')).toBe('ok\n');
    expect(withoutShellNoise(`src/a.ts\n${BREW}`)).toBe(`src/a.ts\n${BREW}`);
    expect(withoutShellNoise('ps: Operation not permitted\n')).toBe('ps: Operation not permitted\n');
  });

  it('should read a glob or ls finding nothing as a silent failure, and other programs\' errors as failures', () => {
    expect(failedSilently(BREW, BREW)).toBe(true);
    expect(failedSilently('Exit code 1\n(eval):1: no matches found: *.tf', undefined)).toBe(true);
    expect(failedSilently(`${BREW}zsh:1: no matches found: .prettierrc*\n`, undefined)).toBe(true);
    expect(failedSilently("ls: cannot access 'Makefile': No such file or directory", undefined)).toBe(true);
    expect(failedSilently('Exit code 1\nrg: src: No such file or directory', undefined)).toBe(false);
    expect(failedSilently(`${BREW}cat: plan.md: No such file or directory\n`, undefined)).toBe(false);
    expect(failedSilently(`${BREW}zsh:1: no matches found: *.md\nmake: *** No targets.  Stop.`, undefined)).toBe(false);
  });
});

describe.each(ENGINES)('probes that find nothing (%s engine)', (engine) => {
  it('should see no dead end in different probes finding nothing after a startup line', () => {
    expect(verdictsOf(probes, { engine }).filter((v) => v?.kind === 'dead_end')).toEqual([]);
  });

  it('should not flag different probes finding nothing as similar calls either, one- or two-phase', () => {
    expect(flaggedActions(probes, engine)).toEqual([]);
    expect(liveActions(probes, engine)).toEqual([]);
  });

  it('should not flag a similar edit after the person declined the first two, one- or two-phase', () => {
    expect(flaggedActions(declinedEdits, engine)).toEqual([]);
    expect(liveActions(declinedEdits, engine)).toEqual([]);
  });

  it('should still break the same probe failing again and again', () => {
    expect(flaggedActions(sameProbe, engine)).toContain('break');
    expect(liveActions(sameProbe, engine)).toContain('deny');
  });

  it('should still flag different calls hitting the same real error after a startup line', () => {
    expect(flaggedActions(sameWall, engine)).toContain('warn');
    expect(liveActions(sameWall, engine)).toContain('warn');
  });
});
