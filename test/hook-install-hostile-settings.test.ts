/**
 * hostile6: `hook install` on a settings file it cannot edit says so, naming the file, exit 2, and changes
 * nothing; what it prints of a file that is not JSON quotes none of it. Before: a settings file nested
 * deeper than 256 levels (valid JSON) was an internal error (exit 3, "a bug in loopwatch"), and a file with
 * an unquoted value quoted V8's excerpt of it (`"{"env":{"K":sk-ant-api"...`: the start of a key).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hookVerbInProcess, loadHookVerbs } from './helpers/hook-in-process.js';
import { tempFolder } from './helpers/temp-folder.js';

beforeAll(loadHookVerbs, 180_000); // the modules of the commands run here, loaded outside the tests' clocks

const KEY = 'sk-ant-api03-Zt8Kq2Lm5Np7Rs4Vw1Xy9Bc3Df6Gh0Jk-Qa2Ws4EdRf5Tg6Yh';

/** `hook install` for Claude Code in a home whose user settings hold `text`. */
async function install(text: string): Promise<{ code: number | null; stderr: string; after: string }> {
  const home = join(tempFolder('hook-install-hostile'), 'home');
  mkdirSync(join(home, '.claude'), { recursive: true });
  const file = join(home, '.claude', 'settings.json');
  writeFileSync(file, text);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  delete env.CODEX_HOME;
  delete env.CLAUDE_CONFIG_DIR;
  const r = await hookVerbInProcess(['install', '--agent', 'claude-code', '--agent-version', '2.1.9'], env, home);
  return { code: r.code, stderr: r.stderr, after: readFileSync(file, 'utf8') };
}

describe('hook install on hostile settings', () => {
  it('should refuse settings nested deeper than it edits, naming the file, changing nothing', async () => {
    const text = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const r = await install(text);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/settings\.json: nested deeper than 256, loopwatch does not edit it; nothing was changed/);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.after).toBe(text);
  });

  it('should quote nothing of settings that are not JSON', async () => {
    for (const text of [`{"env":{"K":${KEY}}}`, `${KEY}`, `{"env":{"ANTHROPIC_API_KEY":"${KEY}"},}`]) {
      const r = await install(text);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/not plain JSON/);
      expect(r.stderr).not.toContain('sk-ant');
      expect(r.after).toBe(text);
    }
  });
});
