/**
 * Codex 0.171 offers a SessionEnd hook (its schema `session-end.command.input`: `{session_id,
 * transcript_path, cwd, hook_event_name: "SessionEnd", reason}`), which loopwatch did not install: a Codex
 * session's state stayed on disk until the 7-day sweep, where Claude Code's and Gemini's end with their
 * SessionEnd. Now `hook install --agent codex` adds SessionEnd, and the Codex hook (and serve's Codex route)
 * ends the session at it.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHook } from '../src/hooks/hook-run.js';
import { installTarget } from '../src/hooks/install-targets.js';
import { CALLS_SUFFIX, STATE_SUFFIX } from '../src/hooks/state-names.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { tempFolder } from './helpers/temp-folder.js';

const SESSION = '01a24b69-531d-7341-937a-0221c362c429';
const pre = (session: string) => JSON.stringify({ session_id: session, turn_id: 't1', transcript_path: null, cwd: '/home/me/proj', hook_event_name: 'PreToolUse', model: 'gpt-5.5', permission_mode: 'bypassPermissions', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'call_1' });
const end = (session: string) => JSON.stringify({ session_id: session, transcript_path: null, cwd: '/home/me/proj', hook_event_name: 'SessionEnd', reason: 'other' });
const files = (dir: string): string[] => {
  try {
    return readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith(STATE_SUFFIX) || f.endsWith(CALLS_SUFFIX));
  } catch {
    return [];
  }
};

const sessions = async (server: ServeServer): Promise<unknown> => ((await (await fetch(`${server.url}/healthz`)).json()) as { sessions: unknown }).sessions;

describe("Codex's SessionEnd", () => {
  it('should be installed for Codex', () => {
    expect(installTarget('codex', 'project', '/home/me/proj').events.map((e) => e.event)).toEqual(['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionEnd']);
  });

  it("should remove the session's state when Codex ends it, as Claude Code's SessionEnd does", () => {
    const stateDir = join(tempFolder('codex-session-end'), 'state');
    runHook(pre(SESSION), { agent: 'codex', stateDir });
    expect(files(stateDir).length).toBeGreaterThan(0);
    const r = runHook(end(SESSION), { agent: 'codex', stateDir });
    expect(r.stdout).toBe('');
    expect(files(stateDir)).toEqual([]);
  });

  it("should end the session on serve's Codex route", async () => {
    const server = await ServeServer.start({ port: 0 });
    try {
      const post = async (body: string) => fetch(`${server.url}/v1/hooks/codex`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await post(pre(SESSION));
      expect(await sessions(server)).toBe(1);
      const res = await post(end(SESSION));
      expect([res.status, res.headers.get('loopwatch-unchecked'), await res.text()]).toEqual([200, null, '']);
      expect(await sessions(server)).toBe(0);
    } finally {
      await server.stop();
    }
  });
});
