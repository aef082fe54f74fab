/**
 * `hook install` and `uninstall --project` print the settings file's path, its backup's and the hook's
 * command line, all under the project's folder: a folder someone else named (an unpacked archive, a
 * cloned repository's subfolder) may hold ESC, BEL, C1 and bidirectional controls in its name. They are
 * shown as escapes, as every other path loopwatch prints from its inputs (hostile7; before: raw, so a
 * folder's name could clear the screen, set the title or open an OSC 8 link).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hookVerbInProcess, loadHookVerbs } from './helpers/hook-in-process.js';
import { tempFolder } from './helpers/temp-folder.js';

beforeAll(loadHookVerbs, 180_000); // the modules of the commands run here, loaded outside the tests' clocks

const HOSTILE = 'p\u001b]8;;https:evil\u0007x\u001b[2J\u009b31m\u202eevil';
/** Controls a terminal acts on: C0 but line breaks, DEL, C1, bidirectional controls. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('hook install in a folder with controls in its name', () => {
  it('should print every path and the command line with the controls as escapes, for install and uninstall', async () => {
    const root = tempFolder('hook-install-terminal');
    const home = join(root, 'home');
    const project = join(root, HOSTILE);
    mkdirSync(home);
    mkdirSync(join(project, '.git'), { recursive: true });
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
    delete env.CLAUDE_CONFIG_DIR;
    for (const args of [['install', '--agent-version', '2.1.9'], ['install', '--agent-version', '2.1.9'], ['uninstall']]) {
      const r = await hookVerbInProcess([...args, '--agent', 'claude-code', '--project'], env, project);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('p\\x1b]8;;https:evil\\x07x\\x1b[2J\\x9b31m\\u202eevil');
      expect(r.stdout).not.toMatch(RAW);
      expect(r.stderr).not.toMatch(RAW);
    }
  });
});
