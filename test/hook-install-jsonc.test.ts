/**
 * A Gemini CLI settings.json with comments (JSONC, which Gemini CLI reads) is not edited, its comments kept,
 * and install prints the exact entries to add by hand: pasted into a plain file, they are what install
 * itself writes (a second install there changes nothing). Uninstall says which entries to take out. Before,
 * both only refused the file, with nothing to paste.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from './helpers/cli.js';
import { tempFolder } from './helpers/temp-folder.js';

const JSONC = '{\n  // my theme\n  "theme": "Dracula",\n}\n';

function gemini(verb: string, home: string): { code: number | null; stdout: string; stderr: string } {
  const args = [CLI, 'hook', verb, '--agent', 'gemini', ...(verb === 'install' ? ['--agent-version', '0.30.0'] : [])];
  const r = spawnSync(process.execPath, args, { env: { ...process.env, HOME: home }, encoding: 'utf8', cwd: home });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function homeWith(text: string): { home: string; file: string } {
  const home = tempFolder('hook-install-jsonc');
  mkdirSync(join(home, '.gemini'));
  const file = join(home, '.gemini', 'settings.json');
  writeFileSync(file, text);
  return { home, file };
}

describe('hook install with a settings file holding comments', () => {
  it('should leave the file as it is and print the entries install would write, exactly', () => {
    const { home, file } = homeWith(JSONC);
    const r = gemini('install', home);
    expect(r.code).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe(JSONC);
    expect(r.stderr).toContain('nothing was changed: make the change printed above by hand');
    const at = r.stdout.indexOf('\n{');
    expect(at).toBeGreaterThan(0);
    expect(r.stdout.slice(0, at)).toContain(`${file} (Gemini CLI, user settings) is not plain JSON (comments or trailing commas)`);
    const entries = JSON.parse(r.stdout.slice(at + 1)) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    expect(Object.keys(entries.hooks)).toEqual(['BeforeTool', 'AfterTool', 'BeforeAgent', 'SessionEnd']);
    expect(entries.hooks.BeforeTool?.[0]?.hooks[0]?.command).toMatch(/hook-main\.cjs --agent gemini --agent-version 0\.30\.0$/);
    // pasted into a plain file: install finds itself installed already
    const plain = homeWith(`${JSON.stringify({ theme: 'Dracula', ...entries }, null, 2)}\n`);
    const again = gemini('install', plain.home);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to change, loopwatch is installed already');
  });

  it('should say which entries uninstall leaves to take out by hand', () => {
    const { home, file } = homeWith(JSONC);
    const r = gemini('uninstall', home);
    expect(r.code).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe(JSONC);
    expect(r.stdout).toContain(`${file} (Gemini CLI, user settings) is not plain JSON (comments or trailing commas), so loopwatch does not edit it. Take loopwatch's entries out yourself: under "hooks", in BeforeTool, AfterTool, BeforeAgent, SessionEnd`);
  });
});
