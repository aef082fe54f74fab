/**
 * Failures the harness or the person's settings make are no dead end to break (issue 27; real Gemini CLI
 * devset sessions, both broken one-phase): calls of several tools each answered "Tool execution denied by
 * policy." (the person's policy: only they can lift it; src/text/failure-kinds.ts), and calls of tools the
 * harness does not have ('Tool "replace" not found in registry', nothing ran, the harness names the tools
 * it has: a rejected turn, src/text/turn-rejection.ts). Each may be warned about; neither is broken,
 * one-phase or two-phase, with the shipped default or the built-in options.
 */
import { describe, expect, it } from 'vitest';
import { CONFIG_PRESETS, LoopDetector } from '../src/index.js';
import type { LoopDetectorOptions, ToolEvent } from '../src/index.js';
import { needsPerson } from '../src/text/failure-kinds.js';
import { isTurnRejection } from '../src/text/turn-rejection.js';

const DENIED = 'Tool execution denied by policy.';
const missing = (tool: string, like: string): string => `Tool "${tool}" not found in registry. Tools must use the exact names that are registered. Did you mean one of: ${like}?`;
const FIREBASE = '{\n  "hosting": {\n    "public": "build",\n    "rewrites": [ { "source": "**", "destination": "/index.html" } ]\n  }\n}';

/** A vault session: searches, then reads, a mkdir, a listing and a write each denied by the person's policy. */
const deniedByPolicy: ToolEvent[] = [
  { tool: 'grep_search', args: { pattern: 'Chaperone', include: '*.md' }, result: 'No matches found for pattern "Chaperone" in path "." (filter: "*.md").' },
  { tool: 'grep_search', args: { pattern: 'authority: LOGAN', include: '*.md' }, result: 'Found 100 matches for pattern "authority: LOGAN"\n---\nFile: 100.md\nL12: authority: LOGAN' },
  { tool: 'read_file', args: { file_path: 'constitution.md' }, error: DENIED },
  { tool: 'read_file', args: { file_path: '-LAF.md' }, error: DENIED },
  { tool: 'run_shell_command', args: { command: 'mkdir -p .gemini/notes' }, error: DENIED },
  { tool: 'list_directory', args: { dir_path: '.gemini/' }, error: DENIED },
  { tool: 'write_file', args: { file_path: 'Chaperone.md', content: '# Chaperone L Interface\n' }, error: DENIED },
  { tool: 'read_file', args: { file_path: '! README.md' }, result: "---\ntitle: '!README'\n---\n# README" },
  { tool: 'read_file', args: { file_path: 'levelset-current.md' }, error: DENIED },
];

/** A session whose harness has only read tools: edits, writes and shell commands refused as unknown tools. */
const unknownTools: ToolEvent[] = [
  { tool: 'read_file', args: { absolute_path: 'C:\\app\\.github\\workflows\\deploy.yml' }, result: 'name: Deploy\non:\n  push:\n    branches: [ main ]\n' },
  { tool: 'read_file', args: { absolute_path: 'C:\\app\\firebase.json' }, result: FIREBASE },
  { tool: 'read_file', args: { absolute_path: 'C:\\app\\vite.config.js' }, result: "import { defineConfig } from 'vite'\nexport default defineConfig({ base: './' })" },
  { tool: 'read_file', args: { absolute_path: 'C:\\app\\firebase.json' }, result: FIREBASE },
  { tool: 'replace', args: { absolute_path: 'C:\\app\\firebase.json', old_content: '"public": "build"', new_content: '"public": "dist"' }, error: missing('replace', '"read_file", "glob", "web_fetch"') },
  { tool: 'write_file', args: { absolute_path: 'C:\\app\\firebase.json', content: FIREBASE.replace('build', 'dist') }, error: missing('write_file', '"read_file", "web_fetch", "glob"') },
  { tool: 'run_shell_command', args: { command: "echo '{}' > firebase.json" }, error: missing('run_shell_command', '"search_file_content", "read_file", "web_fetch"') },
  { tool: 'read_file', args: { absolute_path: 'C:\\app\\firebase.json' }, result: FIREBASE },
  { tool: 'replace', args: { absolute_path: 'C:\\app\\firebase.json', old_content: '"public": "build",', new_content: '"public": "dist",' }, error: missing('replace', '"read_file", "glob", "web_fetch"') },
  { tool: 'run_shell_command', args: { command: "powershell -Command \"(Get-Content firebase.json) -replace 'build','dist' | Set-Content firebase.json\"" }, error: missing('run_shell_command', '"search_file_content", "read_file", "web_fetch"') },
];

/** Each call's action one-phase (checked after it ran). */
function checked(events: readonly ToolEvent[], options: LoopDetectorOptions): string[] {
  const d = new LoopDetector(options);
  try {
    return events.map((e) => d.check(e)?.action ?? '-');
  } finally {
    d.dispose();
  }
}

/** Each proposal's and record's action two-phase, until a proposal is blocked. */
function live(events: readonly ToolEvent[], options: LoopDetectorOptions): string[] {
  const d = new LoopDetector(options);
  const out: string[] = [];
  try {
    for (const [i, e] of events.entries()) {
      const p = d.propose({ ...e, id: `c${i}` });
      out.push(p.action);
      if (p.action === 'deny' || p.action === 'stop') break;
      out.push(d.record({ ...e, id: `c${i}` }).action);
    }
    return out;
  } finally {
    d.dispose();
  }
}

describe.each(['wasm', 'reference'] as const)('failures of the harness or the person (%s engine)', (engine) => {
  describe.each([
    ['the shipped default', (): LoopDetectorOptions => (CONFIG_PRESETS.default as (e: LoopDetectorOptions) => LoopDetectorOptions)({ engine })],
    ['the built-in options', (): LoopDetectorOptions => ({ engine })],
  ])('%s', (_name, options) => {
    it('should not break calls of several tools denied by the person\'s policy', () => {
      expect(checked(deniedByPolicy, options())).not.toContain('break');
      expect(live(deniedByPolicy, options())).not.toContain('deny');
    });

    it('should not break calls of tools the harness does not have', () => {
      expect(checked(unknownTools, options())).not.toContain('break');
      expect(live(unknownTools, options())).not.toContain('deny');
    });
  });
});

describe('the texts', () => {
  it('should read a policy denial as wanting a person, and an unknown tool as a rejected turn', () => {
    expect(needsPerson(DENIED)).toBe(true);
    expect(isTurnRejection(missing('replace', '"read_file"'))).toBe(true);
    expect(isTurnRejection('Tool "run_shell_command" is not registered')).toBe(true);
    expect(isTurnRejection('Error: file not found: src/tool.ts')).toBe(false);
    expect(needsPerson('Error: the request was denied by the server: 403')).toBe(false);
  });
});
