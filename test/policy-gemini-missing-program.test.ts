/**
 * A program missing under Gemini CLI is a probe that found nothing, as under any shell (quiet12; a real
 * Gemini CLI session of holdout7, warned in both replays): `firebase deploy` answered "Output: /usr/bin/bash:
 * line 2: firebase: command not found", then `./node_modules/.bin/firebase deploy` "... No such file or
 * directory"; the agent asked the person whether to install firebase-tools, installed it, deployed, and
 * later ran `NOOP` (not found either). Gemini CLI labels a shell's output `Output: ` on its first line, so
 * the shell's line was not read as a missing program: the three failures made a dead end one-phase, and the
 * deploy proposed after the install a semantic warning two-phase. The label is the CLI's, not the shell's
 * (src/text/missing-program.ts). The same missing program called again and again still breaks.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { saysProgramMissing } from '../src/text/missing-program.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

/** Gemini CLI's shell answer (the reader keeps `Output: ...`, the exit code's footer taken off). */
const failing = (command: string, out: string): ToolEvent => ({ tool: 'run_shell_command', args: { command, dir_path: 'TP-Tutor/' }, result: `Output: ${out}`, error: `Output: ${out}` });
const ok = (command: string, out: string): ToolEvent => ({ tool: 'run_shell_command', args: { command, dir_path: 'TP-Tutor/' }, result: `Output: ${out}` });
const ask = (question: string, answer: string): ToolEvent => ({ tool: 'ask_user', args: { questions: [{ type: 'yesno', question }] }, result: `{"answers":{"0":"${answer}"}}` });
const read = (file: string, text: string): ToolEvent => ({ tool: 'read_file', args: { file_path: file }, result: text });

const session: ToolEvent[] = [
  ok('git push origin main', 'Enumerating objects: 22, done.\nWriting objects: 100% (12/12), 2.85 KiB'),
  failing('firebase deploy', '/usr/bin/bash: line 2: firebase: command not found'),
  failing('./node_modules/.bin/firebase deploy', '/usr/bin/bash: line 2: ./node_modules/.bin/firebase: No such file or directory'),
  read('TP-Tutor/package.json', '{\n  "name": "tp-tutor",\n  "scripts": { "dev": "vite", "build": "tsc && vite build" }\n}'),
  ask('The `firebase` command is not available. Would you like me to install `firebase-tools`?', 'Yes'),
  ok('npm install --save-dev firebase-tools', 'added 612 packages in 41s'),
  ok('./node_modules/.bin/firebase deploy', "\n=== Deploying to 'tp-tutor'...\n\ni  deploying hosting\n✔  Deploy complete!"),
  read('TP-Tutor/src/types/mastery.ts', "export const MASTERY_STATUS = {\n  NOT_STARTED: 'not_started',\n};"),
  ask('The file already defines a `BoundaryNote` interface. Replace it?', 'No'),
  failing('NOOP', '/usr/bin/bash: line 2: NOOP: command not found'),
];

/** The same missing program, called again and again. */
const same: ToolEvent[] = Array.from({ length: 6 }, () => failing('firebase deploy', '/usr/bin/bash: line 2: firebase: command not found'));

describe.each(ENGINES)('missing programs under Gemini CLI (%s engine)', (engine) => {
  it('should not flag different programs not found, one- or two-phase', () => {
    expect(flaggedActions(session, engine)).toEqual([]);
    expect(liveActions(session, engine)).toEqual([]);
  });

  it('should still break the same missing program called again and again', () => {
    expect(flaggedActions(same, engine)).toContain('break');
  });
});

describe('Gemini CLI\'s label', () => {
  it('should read the shell\'s line past it', () => {
    expect(saysProgramMissing('Output: /usr/bin/bash: line 2: firebase: command not found')).toBe(true);
    expect(saysProgramMissing('Output: bash: rg: command not found\n')).toBe(true);
  });

  it('should not read a program that ran, labelled so, as missing', () => {
    expect(saysProgramMissing('Output: rg: src: No such file or directory')).toBe(false);
    expect(saysProgramMissing('Output: Error: Cannot find module')).toBe(false);
    expect(saysProgramMissing('Output: (empty)')).toBe(false);
  });
});
