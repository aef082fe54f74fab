/**
 * A program that is not there is a failure of that program, not a search that found nothing. bash's
 * "<shell>: line 1: <program>: command not found" and zsh's "command not found: <program>" hold the words
 * "not found", and the dead end's class of failures that say nothing was found (dead-end.ts, matchClass)
 * joined them to every other "not found" and "No such file" near them: a build whose tool is missing after
 * a version switch, beside a listing and a `cd` of a folder the agent had already left, read as one wall hit
 * three times. The same missing program coming back is still a dead end (its error's class), and a real
 * "not found" beside a shell's word still says nothing was found. Both engines, and the module's reading
 * against its TypeScript twin.
 */
// vitest: isolate (the module's scratch area, through ./helpers/nothing-found-readings)
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { nothingFoundReadings as readings } from './helpers/nothing-found-readings.js';
import { ENGINES, deadEndsAt, liveActions } from './helpers/verdicts.js';


describe('a shell saying a program is not there', () => {
  it('should not read bash or zsh saying a command is not found as nothing found', () => {
    expect(readings('Exit code 127\n/bin/bash: line 1: yarn: command not found')).toEqual([false, false]);
    expect(readings('bash: cargo-nextest: command not found\nSwitched to toolchain stable')).toEqual([false, false]);
    expect(readings('zsh: command not found: poetry')).toEqual([false, false]);
    expect(readings('zsh:1: command not found: uv')).toEqual([false, false]);
    expect(readings('/usr/bin/sh: line 3: deno: COMMAND  NOT FOUND')).toEqual([false, false]);
  });

  it('should still read a search that came back empty as nothing found, beside a missing program or alone', () => {
    expect(readings('bash: line 1: yarn: command not found\ngrep: src/app: No such file or directory')).toEqual([true, true]);
    expect(readings('Error: route /health not found')).toEqual([true, true]);
    expect(readings('subcommand not found: frobnicate')).toEqual([true, true]);
    expect(readings('the command: not found')).toEqual([true, true]);
    expect(readings('commands not found in PATH')).toEqual([true, true]);
  });
});

const fail = (command: string, out: string): ToolEvent => ({ tool: 'Bash', args: { command }, result: out, error: out });
const ok = (command: string, out: string): ToolEvent => ({ tool: 'Bash', args: { command }, result: out });

const SWITCH = 'Now using node v22.11.0 (npm v10.9.0)';

/**
 * A web project's build after a switch of Node versions: a look for a config in a folder the shell had already
 * left, a `cd` into it, the build whose package manager the new version lacks, the manager installed, then the
 * build failing on a module the project's code names. Four failures in eight calls, three of them saying "not
 * found" or "No such file", one a missing program.
 */
const switchedAndBuilt: ToolEvent[] = [
  ok('pwd', '/home/dev/shop/apps/web'),
  ok('cat package.json', '{ "name": "web", "scripts": { "build": "vite build" } }'),
  fail('ls apps/web/vite.config.*', "ls: cannot access 'apps/web/vite.config.*': No such file or directory"),
  fail('cd apps/web && source ~/.nvm/nvm.sh && nvm use 22 && node --version', '/bin/bash: line 1: cd: apps/web: No such file or directory'),
  ok('ls', 'index.html\npackage.json\nsrc\nvite.config.ts'),
  fail('cd /home/dev/shop && source ~/.nvm/nvm.sh && nvm use 22 && yarn build', `/bin/bash: line 1: yarn: command not found\n${SWITCH}`),
  ok('cd /home/dev/shop && source ~/.nvm/nvm.sh && nvm use 22 && npm install -g yarn', `${SWITCH}\nadded 1 package in 2s`),
  fail('source ~/.nvm/nvm.sh && nvm use 22 && yarn build', "Module not found: Error: Can't resolve './money' in '/home/dev/shop/apps/web/src'"),
];

/** The same missing program, asked for again and again in different commands. */
const sameProgramMissing: ToolEvent[] = ['build', 'test', 'lint', 'typecheck'].map((task) =>
  fail(`source ~/.nvm/nvm.sh && nvm use 22 && yarn ${task}`, `Exit code 127\n/bin/bash: line 1: yarn: command not found\n${SWITCH}`),
);

describe.each(ENGINES)('failures joined by what they say (%s engine)', (engine) => {
  it('should see no dead end in a missing program beside a listing and a cd of a folder not there', () => {
    expect(deadEndsAt(switchedAndBuilt, engine)).toEqual([]);
    expect(liveActions(switchedAndBuilt, engine)).toEqual([]);
  });

  it('should still see a dead end when the same program is missing again and again', () => {
    expect(deadEndsAt(sameProgramMissing, engine).length).toBeGreaterThan(0);
  });
});
