/**
 * `hook install` in a project someone else made (a cloned repository) writes only the project's own
 * settings file: a `.claude/settings.json` that is a symbolic link (to `~/.docker/config.json`, credentials
 * inside) is refused, not written through and not replaced by a copy of its target's text in the project
 * (before: the credentials were copied into the project as the new settings file and its backup); a
 * `.claude` folder linked outside the project (to `~/.gemini`) is refused, not edited. A link planted where
 * install writes its temporary file or its backup is never written through. Uninstall alike.
 */
import { lstatSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeSettings } from '../src/hooks/settings-file.js';
import type { CliRun } from './helpers/cli.js';
import { hookVerbInProcess, loadHookVerbs } from './helpers/hook-in-process.js';
import { tempFolder } from './helpers/temp-folder.js';

beforeAll(loadHookVerbs, 180_000); // the modules of the commands run here, loaded outside the tests' clocks

const CREDENTIALS = '{"auths":{"registry.example":{"auth":"c2VjcmV0dXNlcjpTM2NyZXRQYXNzd29yZA=="}}}\n';

interface Place {
  home: string;
  project: string;
  env: NodeJS.ProcessEnv;
}

function place(): Place {
  const root = tempFolder('hook-install-links');
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(home);
  mkdirSync(project);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  delete env.CODEX_HOME;
  delete env.CLAUDE_CONFIG_DIR;
  return { home, project, env };
}

function run(p: Place, args: readonly string[]): Promise<CliRun> {
  return hookVerbInProcess([...args, ...(args[0] === 'install' ? ['--agent-version', '2.1.9'] : [])], p.env, p.project);
}

/** Every file's text under `dir` (links as `-> target`), by name. */
function texts(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    out[name] = lstatSync(path).isSymbolicLink() ? '(a link)' : readFileSync(path, 'utf8');
  }
  return out;
}

describe('hook install in a project whose settings are a symbolic link', () => {
  it('should refuse a settings file linked to a file outside, copying nothing of it into the project', async () => {
    const p = place();
    mkdirSync(join(p.home, '.docker'));
    const secret = join(p.home, '.docker', 'config.json');
    writeFileSync(secret, CREDENTIALS, { mode: 0o600 });
    mkdirSync(join(p.project, '.claude'));
    symlinkSync(secret, join(p.project, '.claude', 'settings.json'));
    for (const verb of ['install', 'uninstall']) {
      const r = await run(p, [verb, '--agent', 'claude-code', '--project']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('is a symbolic link');
      expect(r.stderr).toContain('nothing was changed');
    }
    expect(texts(join(p.project, '.claude'))).toEqual({ 'settings.json': '(a link)' });
    expect(readFileSync(secret, 'utf8')).toBe(CREDENTIALS);
  });

  it("should refuse a settings folder linked outside the project, leaving the other folder's settings as they were", async () => {
    const p = place();
    const gemini = join(p.home, '.gemini');
    mkdirSync(gemini);
    writeFileSync(join(gemini, 'settings.json'), '{"theme":"dark"}\n');
    symlinkSync(gemini, join(p.project, '.claude'));
    const r = await run(p, ['install', '--agent', 'claude-code', '--project']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('outside the project');
    expect(texts(gemini)).toEqual({ 'settings.json': '{"theme":"dark"}\n' });
  });

  it('should still install into a folder inside the project reached through a link of its own', async () => {
    const p = place();
    mkdirSync(join(p.project, 'shared'));
    symlinkSync(join(p.project, 'shared'), join(p.project, '.claude'));
    const r = await run(p, ['install', '--agent', 'claude-code', '--project']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(p.project, 'shared', 'settings.json'), 'utf8')).toContain('PreToolUse');
  });
});

describe('writeSettings and links planted under the names it writes', () => {
  it('should not write through a dangling link where the backup goes', () => {
    const dir = tempFolder('hook-install-links');
    const path = join(dir, 'settings.json');
    writeFileSync(path, '{}\n');
    const now = new Date('2026-01-02T03:04:05.678Z');
    const victim = join(dir, 'victim');
    symlinkSync(victim, `${path}.bak-20260102T030405.678Z`);
    const backup = writeSettings({ path, text: '{}\n', settings: {} }, '{"hooks":{}}\n', now);
    expect(backup).toBe(`${path}.bak-20260102T030405.678Z-1`);
    expect(readdirSync(dir)).not.toContain('victim');
    expect(readFileSync(path, 'utf8')).toBe('{"hooks":{}}\n');
  });
});
