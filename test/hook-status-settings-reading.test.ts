/**
 * `hook status` reads a settings file as the agent and `hook install` read it (src/hooks/settings-hooks.ts):
 * the JSON structure's `hooks.<event>[].hooks[].command`, comments allowed as Gemini CLI allows them. It
 * found the lines by a regex over the text, which disagreed with that structure on odd or hostile files:
 * a key spelled with an escape, a comment between a key and its colon hid an open line the agent runs; a
 * `"command"` outside `hooks`, commented out, or replaced by a later duplicate key was named though the agent
 * runs none of them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentName } from '../src/hooks/hook-agent.js';
import { installTarget } from '../src/hooks/install-targets.js';
import { openInstalls } from '../src/hooks/installed-lines.js';
import { readSettings } from '../src/hooks/settings-file.js';
import { mergeHooks } from '../src/hooks/settings-merge.js';
import { START_VARIABLES, startPrefix } from '../src/hooks/start-environment.js';
import { tempFolder } from './helpers/temp-folder.js';

/** The line install writes (closed to the environment). */
const CLOSED = `${startPrefix('linux', () => true).join(' ')} /usr/bin/node /opt/lw/dist/hook/hook-main.cjs --agent gemini`;
/** A hand-written line: every start variable left to Node, npx looked up on PATH. */
const OPEN = 'npx --no-install loopwatch hook --agent gemini';
const ALL = START_VARIABLES.map((v) => v.name);

/** A home and a project; `text` written as `agent`'s settings of `scope`. */
function place(agent: AgentName, scope: 'user' | 'project', text: string): { home: string; project: string; path: string } {
  const root = tempFolder('status-reading');
  const home = join(root, 'home');
  const project = join(root, 'proj');
  mkdirSync(project, { recursive: true });
  const path = installTarget(agent, scope, project, { HOME: home }).path;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return { home, project, path };
}

/** What status names for `text` as `agent`'s user settings: [] when nothing, else the file's left variables and programs. */
function named(text: string, agent: AgentName = 'gemini'): { left: readonly string[]; lookedUp: readonly string[] }[] {
  const p = place(agent, 'user', text);
  return openInstalls(p.project, { HOME: p.home }, 'linux').map((o) => ({ left: o.left, lookedUp: o.lookedUp }));
}

const OPEN_NAMED = [{ left: ALL, lookedUp: ['npx'] }];

describe('hook status reads a settings file as install and the agent do', () => {
  it('should name an open line whose "command" key is written with an escape (JSON.parse reads it as the agent does)', () => {
    const text = `{"hooks": {"BeforeTool": [{"matcher": "*", "hooks": [{"type": "command", "comm\\u0061nd": ${JSON.stringify(OPEN)}}]}]}}`;
    expect(named(text)).toEqual(OPEN_NAMED);
    // install reads the same line as loopwatch's: it replaces it ("updated"), never adds a second
    const p = place('gemini', 'user', text);
    const old = readSettings(p.path);
    const merged = mergeHooks(text, old.settings, [{ event: 'BeforeTool', matcher: '*' }], { type: 'command', command: CLOSED }, '  ');
    expect(merged.changes).toEqual([{ event: 'BeforeTool', change: 'updated' }]);
  });

  it('should name an open line of a Gemini settings file with comments between a key and its value', () => {
    const text = `{\n  // loopwatch\n  "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command" /* by hand */ : /* x */ ${JSON.stringify(OPEN)}}]}]}\n}\n`;
    expect(named(text)).toEqual(OPEN_NAMED);
  });

  it('should not name a "command" that is no hook: an MCP server\'s, a commented-out line, a string\'s text', () => {
    const mcp = { mcpServers: { lw: { command: OPEN } }, hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: CLOSED }] }] } };
    expect(named(JSON.stringify(mcp))).toEqual([]);
    const commented = `{\n  "hooks": {"BeforeTool": [{"hooks": [{\n    "type": "command",\n    // "command": ${JSON.stringify(OPEN)},\n    "command": ${JSON.stringify(CLOSED)}\n  }]}]}\n}\n`;
    expect(named(commented)).toEqual([]);
    const block = `{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", /* "command": ${JSON.stringify(OPEN)}, */ "command": ${JSON.stringify(CLOSED)}}]}]}}`;
    expect(named(block)).toEqual([]);
  });

  it('should read a key written twice as the agent does (the last one)', () => {
    const handler = `{"type": "command", "command": ${JSON.stringify(OPEN)}, "command": ${JSON.stringify(CLOSED)}}`;
    expect(named(`{"hooks": {"BeforeTool": [{"hooks": [${handler}]}]}}`)).toEqual([]);
    const hooks = `"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": ${JSON.stringify(OPEN)}}]}]}`;
    expect(named(`{${hooks}, "hooks": {}}`)).toEqual([]);
    expect(named(`{"hooks": {}, ${hooks}}`)).toEqual(OPEN_NAMED); // guard: the last one is read
  });

  it('should keep strings whole when reading comments: a "//" or "/*" inside a value is no comment (guard)', () => {
    const text = `{"url": "https://example.com/*", "note": "a // b", "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": ${JSON.stringify(OPEN)}}]}]}, "end": "*/"}`;
    expect(named(text)).toEqual(OPEN_NAMED);
  });

  it('should pass over a file the agent cannot read (not a JSON object) and name nothing in it', () => {
    expect(named(`{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": ${JSON.stringify(OPEN)}}]}]},}`)).toEqual([]); // a trailing comma: Gemini's parse fails
    expect(named(`[{"command": ${JSON.stringify(OPEN)}}]`)).toEqual([]);
  });

  it('should read a line under any event, and a long command by its head (guard)', () => {
    expect(named(JSON.stringify({ hooks: { Notification: [{ hooks: [{ type: 'command', command: OPEN }] }] } }), 'claude-code')).toEqual([{ left: ALL, lookedUp: ['npx'] }]);
    const long = `${OPEN} ${' '.repeat(200_000)}# ${'x'.repeat(1_000_000)}`;
    expect(named(JSON.stringify({ hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: long }] }] } }))).toEqual(OPEN_NAMED);
  });

  it('should name exactly the files whose parsed hooks hold an open loopwatch line, however keys are escaped and comments placed', () => {
    // a settings value, written with keys' letters escaped at random and comments between tokens at random
    const write = (v: unknown, escapes: boolean[], comments: boolean[], k = { i: 0 }): string => {
      const gap = (): string => (comments[k.i++ % comments.length] === true ? ' /* c */ ' : '');
      const key = (s: string): string => `"${[...s].map((c, j) => (escapes[(k.i + j) % escapes.length] === true ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('')}"`;
      if (Array.isArray(v)) return `[${gap()}${v.map((x) => write(x, escapes, comments, k)).join(`,${gap()}`)}${gap()}]`;
      if (typeof v === 'object' && v !== null) return `{${gap()}${Object.entries(v).map(([n, x]) => `${key(n)}${gap()}:${gap()}${write(x, escapes, comments, k)}`).join(`,${gap()}`)}${gap()}}`;
      return JSON.stringify(v);
    };
    const command = fc.constantFrom(OPEN, CLOSED, 'echo hi', '/usr/bin/node /opt/lw/dist/hook/hook-main.cjs --agent gemini');
    const handler = fc.record({ type: fc.constant('command'), command });
    const settings = fc.record({
      hooks: fc.dictionary(fc.constantFrom('BeforeTool', 'AfterTool', 'SessionEnd'), fc.array(fc.record({ hooks: fc.array(handler, { maxLength: 3 }) }), { maxLength: 2 })),
      mcpServers: fc.dictionary(fc.constantFrom('a', 'b'), fc.record({ command })),
    });
    fc.assert(
      fc.property(settings, fc.array(fc.boolean(), { minLength: 1, maxLength: 9 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 9 }), (s, escapes, comments) => {
        const commands = Object.values(s.hooks).flatMap((groups) => groups.flatMap((g) => g.hooks.map((h) => h.command)));
        const expected = commands.includes(OPEN) ? [{ left: ALL, lookedUp: ['npx'] }] : commands.some((c) => c.startsWith('/usr/bin/node')) ? [{ left: ALL, lookedUp: [] }] : [];
        expect(named(write(s, escapes, comments))).toEqual(expected);
      }),
      { seed: 42, numRuns: 150 },
    );
  });
});
