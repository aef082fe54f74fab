/**
 * A project's `.loopwatch.json` may be a symbolic link (git keeps links), and a cloned project's link can
 * point at any file of the user's (`~/.aws/credentials`). Such a file is not JSON, and the notice saying
 * so (shown to the user as the agent's `systemMessage`, and on stderr, kept in the agent's logs) quoted
 * V8's message, which holds a piece of the text: `Unexpected token 'd', "[default]\na"... is not valid
 * JSON`. The notice now says where the text stops being JSON, never what it holds.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accept } from '../src/hooks/accepted-allowlists.js';
import { acceptedPath, projectAllowlist } from '../src/hooks/project-allowlist.js';
import { tempFolder } from './helpers/temp-folder.js';

const POSIX = process.platform !== 'win32';

/** A git project whose `.loopwatch.json` links to a file holding `text`; returns the project and its state folder. */
function linkedProject(text: string): { cwd: string; stateDir: string } {
  const root = tempFolder('allow-link');
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  mkdirSync(home);
  mkdirSync(join(cwd, '.git'), { recursive: true });
  writeFileSync(join(home, 'credentials'), text);
  symlinkSync(join(home, 'credentials'), join(cwd, '.loopwatch.json'));
  return { cwd, stateDir: join(root, 'state') };
}

describe.skipIf(!POSIX)('a .loopwatch.json that links to another file', () => {
  it.each([
    ['an INI file', '[default]\nregion = eu-west-3\nprofile_of_mine = hunter2\n', 'not JSON'],
    ['a JSON-like file cut short', '{"apiKey": "pieceOfMyKey', 'not JSON (at character 24)'],
    ['JSON with a bad key', '{"a": 1, tanglewood-private-notes: 2}', 'not JSON (at character 9)'],
  ])('should not show a piece of %s in the notice', (_what, text, said) => {
    const { cwd, stateDir } = linkedProject(text);
    const got = projectAllowlist(cwd, stateDir);
    expect(got.rules).toEqual([]);
    expect(got.notice).toBe(`loopwatch: ${join(cwd, '.loopwatch.json')} is not used (${said}); calls are checked without its allowlist`);
    for (const piece of ['default', 'region', 'pieceOf', 'tanglewood', 'hunter2']) expect(got.notice).not.toContain(piece);
  });

  it('should still use a link to a good allowlist', () => {
    const { cwd, stateDir } = linkedProject(JSON.stringify({ allow: [{ command: '^make$' }] }));
    const path = join(cwd, '.loopwatch.json');
    accept(acceptedPath(path), JSON.stringify({ allow: [{ command: '^make$' }] })); // accepted as its target's real path
    expect(projectAllowlist(cwd, stateDir)).toEqual({ rules: [{ command: '^make$' }], path, notice: `loopwatch: ${path} is in use: 1 rule lets calls repeat without a warning` });
    expect(projectAllowlist(cwd, stateDir)).toEqual({ rules: [{ command: '^make$' }], path }); // told once
  });
});
