/**
 * `hook install`/`uninstall` never clobber a settings file that is not the user's to replace:
 *
 * - a file of another user (or, for a new file, a folder of another user) is refused by name, exit 2,
 *   untouched (its bytes, owner and mode), nothing made beside it. Before, install renamed its own file over
 *   it: run as root (`sudo`), the user's `~/.claude/settings.json` became root's, which the user's agent can
 *   no longer write. Through the hook command in the test's process (hookVerbInProcess), as root (only root can
 *   give a file to another user here);
 * - a file changed between install's read and its rename (the agent, an editor, a second install) is not
 *   replaced: the other program's text stays, no backup or temporary file is left, and the command says so
 *   (exit 2). Before, the change was lost without a word. The change is made at writeSettings's seam (after
 *   the read, before the write), as a race cannot be made to land there every time.
 */
import { chownSync, chmodSync, lstatSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readSettings, writeSettings } from '../src/hooks/settings-file.js';
import type { AgentName } from '../src/hooks/hook-agent.js';
import { hookVerbInProcess, loadHookVerbs } from './helpers/hook-in-process.js';
import { tempFolder } from './helpers/temp-folder.js';

beforeAll(loadHookVerbs, 180_000); // the modules of the commands run here, loaded outside the tests' clocks

const OTHER = 12345;
const TEXT = '{\n  "theme": "dark"\n}\n';

/** The folder and environment that make `agent`'s user settings `<root>/<folder>/<file>`. */
function userSettings(agent: AgentName, root: string): { path: string; env: NodeJS.ProcessEnv } {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: root, CLAUDE_CONFIG_DIR: join(root, 'claude'), CODEX_HOME: join(root, 'codex') };
  const path = agent === 'claude-code' ? join(root, 'claude', 'settings.json') : agent === 'codex' ? join(root, 'codex', 'hooks.json') : join(root, '.gemini', 'settings.json');
  return { path, env };
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

describe.skipIf(!asRoot)('hook install and uninstall leave another user\'s settings as they are', () => {
  for (const agent of ['claude-code', 'codex', 'gemini'] as const) {
    it(`should refuse a settings file of another user, untouched (${agent})`, async () => {
      const root = tempFolder('hook-install-owner');
      const { path, env } = userSettings(agent, root);
      mkdirSync(join(path, '..'));
      writeFileSync(path, TEXT);
      chmodSync(path, 0o600);
      chownSync(path, OTHER, OTHER);
      for (const verb of ['install', 'uninstall']) {
        const r = await hookVerbInProcess([verb, '--agent', agent, ...(verb === 'install' ? ['--agent-version', '2.1.9'] : [])], env, root);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(`${path}: it is owned by uid ${OTHER}, not by you (uid 0); loopwatch does not write another user's settings`);
        expect(r.stderr).toContain('nothing was changed');
        const st = lstatSync(path);
        expect([readFileSync(path, 'utf8'), st.uid, st.gid, st.mode & 0o777]).toEqual([TEXT, OTHER, OTHER, 0o600]);
        expect(readdirSync(join(path, '..'))).toEqual([path.split('/').pop()]);
      }
    }, 60_000);
  }

  it('should not make a settings file in a folder of another user', async () => {
    const root = tempFolder('hook-install-owner-folder');
    const { path, env } = userSettings('claude-code', root);
    mkdirSync(join(path, '..'));
    chownSync(join(path, '..'), OTHER, OTHER);
    const r = await hookVerbInProcess(['install', '--agent', 'claude-code', '--agent-version', '2.1.9'], env, root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${path}: its folder is owned by uid ${OTHER}`);
    expect(readdirSync(join(path, '..'))).toEqual([]);
  }, 60_000);
});

describe.skipIf(!asRoot)('hook install makes no folder of its own in another user\'s', () => {
  // as root (sudo) for a user's HOME whose agent has no settings folder yet: mkdir -p made it root's
  for (const [what, folder] of [
    ['its folder', (root: string) => join(root, 'claude')],
    ['its folder and the one above', (root: string) => join(root, 'config', 'claude')],
  ] as const) {
    it(`should refuse when ${what} is missing and the nearest existing folder is another user's, nothing made`, async () => {
      const root = tempFolder('hook-install-owner-ancestor');
      chownSync(root, OTHER, OTHER);
      const env: NodeJS.ProcessEnv = { ...process.env, HOME: root, CLAUDE_CONFIG_DIR: folder(root) };
      const r = await hookVerbInProcess(['install', '--agent', 'claude-code', '--agent-version', '2.1.9'], env, root);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${join(folder(root), 'settings.json')}: its folder is missing, and the nearest existing folder above it, ${root}, is owned by uid ${OTHER}, not by you (uid 0)`);
      expect(r.stderr).toContain('nothing was changed');
      expect(readdirSync(root)).toEqual([]);
    }, 60_000);
  }

  it('should make the missing folders when the nearest existing one is the installer\'s own', async () => {
    const root = tempFolder('hook-install-owner-ancestor-own');
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: root, CLAUDE_CONFIG_DIR: join(root, 'config', 'claude') };
    const r = await hookVerbInProcess(['install', '--agent', 'claude-code', '--agent-version', '2.1.9'], env, root);
    expect(r.code).toBe(0);
    expect(readFileSync(join(root, 'config', 'claude', 'settings.json'), 'utf8')).toContain('PreToolUse');
  }, 60_000);
});

describe('hook install does not replace a settings file changed after it was read', () => {
  it('should keep the other program\'s text, leave no backup or temporary file, and say so', () => {
    const dir = tempFolder('hook-install-changed');
    const path = join(dir, 'settings.json');
    writeFileSync(path, TEXT, { mode: 0o640 });
    const old = readSettings(path);
    const theirs = '{\n  "theme": "light",\n  "model": "opus"\n}\n';
    writeFileSync(path, theirs); // the agent saved its settings meanwhile
    expect(() => writeSettings(old, '{"hooks": {}}\n')).toThrow(`${path}: changed while loopwatch was editing it (another program wrote it): run the command again`);
    expect(readFileSync(path, 'utf8')).toBe(theirs);
    expect(readdirSync(dir)).toEqual(['settings.json']);
  });

  it('should not write over a file made after it read none', () => {
    const dir = tempFolder('hook-install-made');
    const path = join(dir, 'settings.json');
    const old = readSettings(path);
    writeFileSync(path, TEXT);
    expect(() => writeSettings(old, '{"hooks": {}}\n')).toThrow('changed while loopwatch was editing it');
    expect(readFileSync(path, 'utf8')).toBe(TEXT);
    expect(readdirSync(dir)).toEqual(['settings.json']);
  });

  it('should write a file unchanged since its read, with its mode, as before', () => {
    const dir = tempFolder('hook-install-same');
    const path = join(dir, 'settings.json');
    writeFileSync(path, TEXT);
    chmodSync(path, 0o640);
    const backup = writeSettings(readSettings(path), '{"hooks": {}}\n');
    expect(readFileSync(path, 'utf8')).toBe('{"hooks": {}}\n');
    expect(lstatSync(path).mode & 0o777).toBe(0o640);
    expect(backup === null ? null : readFileSync(backup, 'utf8')).toBe(TEXT);
  });
});
