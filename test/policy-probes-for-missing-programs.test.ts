/**
 * Probes for programs that are not there are no dead end. A Codex CLI session on a fresh Windows machine
 * (holdout2: spec-kit's setup, Git Bash) tries `./specify --help`, `rg --files`, `pixi run specify`, then
 * `python -c ...`, and each fails because the shell finds no such program ("/bin/bash: line 1: rg: command
 * not found"). Each says "not found", so the dead end's class of failures that found nothing made them one
 * wall: warned at the 7th call, and as similar calls a semantic warning two-phase. They are different
 * probes, each finding one tool missing, as silent as searches that found nothing. The same missing
 * program called again and again still fires, and so do different commands failing with one real error.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { MISSING_LOOK, MISSING_PROGRAM_LINES, saysProgramMissing } from '../src/text/missing-program.js';
import { withoutShellNoise } from '../src/text/shell-noise.js';
import { ENGINES, flaggedActions, liveActions, verdictsOf } from './helpers/verdicts.js';

/** A Codex shell call failing with `out` (the reader gives the output as the error and the result). */
const shell = (cmd: string, out: string): ToolEvent => ({ tool: 'shell', args: { command: ['bash', '-lc', cmd], workdir: 'c:\\Users\\me\\app' }, result: out, error: out });

const probes: ToolEvent[] = [
  shell('./specify --help', '/bin/bash: line 1: ./specify: No such file or directory\n'),
  { tool: 'shell', args: { command: ['bash', '-lc', 'ls'], workdir: 'c:\\Users\\me\\app' }, result: 'README.md\npixi.toml\nsrc\n' },
  shell("rg --files -g 'specify*'", '/bin/bash: line 1: rg: command not found\n'),
  { tool: 'shell', args: { command: ['bash', '-lc', 'find . -maxdepth 3 -name "specify*"'], workdir: 'c:\\Users\\me\\app' }, result: './.claude/commands/specify.md\n' },
  { tool: 'shell', args: { command: ['bash', '-lc', 'cat pixi.toml'], workdir: 'c:\\Users\\me\\app' }, result: '[project]\nname = "app"\n' },
  shell('pixi run specify --help', '/bin/bash: line 1: pixi: command not found\n'),
  shell('python -c "import specify_cli"', '/bin/bash: line 1: python: command not found\n'),
  shell('python3 --version', 'zsh:1: command not found: python3\n'),
  shell('uv --version', "'uv' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n"),
];
/** The same missing program, called again and again. */
const sameProgram: ToolEvent[] = Array.from({ length: 6 }, () => shell('pixi run specify --help', '/bin/bash: line 1: pixi: command not found\n'));
/** Different commands failing with one real error, which names a missing file of the program's own. */
const sameWall: ToolEvent[] = ['make', 'make all', 'make build', 'make -j4', 'make install'].map((c) => shell(c, "make: *** No rule to make target `config.mk'.  Stop.\n"));

describe('what a shell says of a missing program', () => {
  it('should read each shell\'s message that the program is not there', () => {
    expect(saysProgramMissing('/bin/bash: line 1: rg: command not found\n')).toBe(true);
    expect(saysProgramMissing('bash: rg: command not found')).toBe(true);
    expect(saysProgramMissing('/bin/bash: line 1: ./specify: No such file or directory\n')).toBe(true);
    expect(saysProgramMissing('sh: 1: rg: not found')).toBe(true);
    expect(saysProgramMissing('zsh:1: command not found: pixi')).toBe(true);
    expect(saysProgramMissing('fish: Unknown command: rg')).toBe(true);
    expect(saysProgramMissing("'uv' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n")).toBe(true);
    expect(saysProgramMissing("Exit code: 127\nbash: line 1: pixi: command not found")).toBe(true);
    const ps = "rg : The term 'rg' is not recognized as the name of a cmdlet, function, script file, or operable\nprogram. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.\nAt line:1 char:1\n+ rg --files\n+ ~~\n    + CategoryInfo          : ObjectNotFound: (rg:String) [], CommandNotFoundException\n    + FullyQualifiedErrorId : CommandNotFoundException\n";
    expect(saysProgramMissing(ps)).toBe(true);
    expect(saysProgramMissing("\u001b[31;1mrg: The term 'rg' is not recognized as a name of a cmdlet, function, script file, or executable program.\u001b[0m\n\u001b[31;1mCheck the spelling of the name, or if a path was included, verify that the path is correct and try again.\u001b[0m")).toBe(true);
  });

  it('should read a program that ran, or another error, as a real failure', () => {
    expect(saysProgramMissing('/bin/bash: line 1: cd: packages/hardhat: No such file or directory')).toBe(false);
    expect(saysProgramMissing('rg: src: No such file or directory')).toBe(false);
    expect(saysProgramMissing('bash: line 1: pixi: command not found\nerror: build failed')).toBe(false);
    expect(saysProgramMissing("make: *** No rule to make target `config.mk'.  Stop.")).toBe(false);
    expect(saysProgramMissing('Exit code: 1')).toBe(false);
    expect(saysProgramMissing('')).toBe(false);
    expect(saysProgramMissing(`${'x'.repeat(2000)}\nbash: rg: command not found`)).toBe(false);
  });
});

/** saysProgramMissing as first written: every line tried, with no look for the patterns' words first. */
function plainProgramMissing(error: string): boolean {
  const COMPANIONS = [
    /^operable program or batch file\.?$/,
    /^(?:function, )?(?:script file, )?(?:or )?(?:(?:operable|executable) )?program\b.*$/,
    /^Check the spelling of the name\b.*$/,
    /^At (?:line:\d+ char:\d+|[^\n]*:\d+ char:\d+)$/,
    /^\+ .*$/,
    /^Caused by: No such file or directory \(os error 2\)$/,
    /^(?:error:?\s*)?\[?(?:exit(?: code| status)?|exited with(?: code)?|process exited with code):?\s*\d+\]?\.?$/i,
  ];
  const head = error.length > MISSING_LOOK ? error.slice(0, MISSING_LOOK) : error;
  const lines = withoutShellNoise(head.replace(/\u001b\[[0-9;]*m/g, '').replace(/^Output: /, '')).split('\n');
  if (error.length > MISSING_LOOK) lines.pop();
  let missing = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    if (MISSING_PROGRAM_LINES.some((p) => p.test(line))) missing = true;
    else if (!COMPANIONS.some((p) => p.test(line))) return false;
  }
  return missing;
}

describe('reading a missing program, words first', () => {
  it('should answer as every line tried, colours, cases, noise lines and the cut included', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '/bin/bash: line 1: rg: command not found', 'sh: 1: rg: not found', '/bin/bash: line 1: ./specify: No such file or directory', 'zsh:1: command not found: pixi',
        'zsh: COMMAND NOT FOUND: pixi', 'zsh: No Such File Or Directory: x', 'fish: Unknown command: rg', "'rg' is not recognized as an internal or external command,",
        "rg : The term 'rg' is not recognized as the name of a cmdlet, function", 'operable program or batch file.', 'At line:1 char:1', '+ rg', 'exit code 127', 'Error: boom',
        '/Users/ana/.profile: line 6: compdef: command not found', '\u001b[31m', '\u001b[0m', 'not \u001b[1mfound', 'Unknown\u001b[0m command', '\n', '\r\n', ' ',
        // parts of a line a colour may split (joined with nothing between, half the time)
        'sh: 1: rg: ', 'sh: 1: rg: not \u001b[1mfound', 'fish: ', 'fish: Unknown\u001b[0m command', ': rg', ' rg',
      ),
      fc.string({ unit: fc.constantFrom('a', 'n', 'o', 't', ' ', 'f', 'u', 'd', ':', '\n', '\u001b', '[', 'm', '1'), maxLength: 12 }),
    );
    const error = fc.tuple(fc.array(piece, { maxLength: 10 }), fc.nat(1100)).map(([ps, pad]) => `${pad > 1000 ? 'y'.repeat(pad) : ''}${ps.join(pad % 2 === 0 ? '\n' : '')}`);
    let yes = 0;
    fc.assert(
      fc.property(error, (e) => {
        if (plainProgramMissing(e)) yes++;
        expect(saysProgramMissing(e)).toBe(plainProgramMissing(e));
      }),
      { numRuns: 3000 },
    );
    expect(yes).toBeGreaterThan(0);
  });
});

describe.each(ENGINES)('probes for missing programs (%s engine)', (engine) => {
  it('should see no dead end in different programs not found', () => {
    expect(verdictsOf(probes, { engine }).filter((v) => v?.kind === 'dead_end')).toEqual([]);
  });

  it('should not flag them, one- or two-phase', () => {
    expect(flaggedActions(probes, engine)).toEqual([]);
    expect(liveActions(probes, engine)).toEqual([]);
  });

  it('should still break the same missing program called again and again', () => {
    expect(flaggedActions(sameProgram, engine)).toContain('break');
    expect(liveActions(sameProgram, engine)).toContain('deny');
  });

  it('should still flag different commands hitting one real error', () => {
    expect(flaggedActions(sameWall, engine)).toContain('warn');
    expect(liveActions(sameWall, engine)).toContain('warn');
  });
});
