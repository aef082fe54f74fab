/**
 * What a hostile repository or agent puts in a name reaches the user's terminal through the hook only as
 * visible escapes: ESC sequences (OSC 0 sets the window title, CSI 2J clears the screen, OSC 8 opens a
 * link), C1's CSI (U+009B), NUL, a carriage return that rewrites the line, and the bidirectional overrides and
 * isolates (U+202E, U+2066). On integ (de6f187) three surfaces let them through: the notice in the hook's
 * JSON reply (`systemMessage`, printed by the agent after decoding the JSON: the folder of `.loopwatch.json`
 * named with ESC/OSC/CR came back raw), the decision log's lines (C1 and bidirectional controls raw in the
 * file a `tail -f` shows), and `hook trust`'s refusal naming an agent's process (raw bidirectional override).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_VARIABLES } from '../src/hooks/agent-caller.js';
import { loopwatch } from './helpers/cli.js';
import { AGENTS, beforePayload, hook } from './helpers/hook-payloads.js';
import { tempFolder } from './helpers/temp-folder.js';
import { trustInTerminal } from './helpers/trust-terminal.js';

/** Title, clear screen, a link, C1's CSI, bidirectional override and isolate, a carriage return. */
const EVIL = '\x1b]0;pwned\x07\x1b[2J\x1b]8;;http:evil\x1b\\L\x1b]8;;\x1b\\\x9b31m\u202eevil\u2066\rx';
/** Every character a terminal acts on (line feeds aside: JSON lines are split on them first). */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('a hostile folder name in the hook reply', () => {
  it.each(AGENTS)("should reach %s's systemMessage with its controls as escapes", async (agent) => {
    const root = tempFolder('terminal-escapes');
    const cwd = join(root, `repo${EVIL}`);
    mkdirSync(cwd, { recursive: true });
    execFileSync('git', ['init', '-q', cwd]); // a real repository: the allowlist is looked for up to its root
    writeFileSync(join(cwd, '.loopwatch.json'), JSON.stringify({ allow: [{ tool: 'Bash', command: `^npm test${EVIL}$` }] }));
    const payload = { ...beforePayload(agent, 's1', { tool: agent === 'gemini' ? 'run_shell_command' : 'Bash', args: { command: 'ls' } }, 't1'), cwd };
    const r = await hook(['--agent', agent, '--state-dir', join(root, 'state')], payload);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW); // the line itself: no raw C1 or bidirectional control
    const message = (JSON.parse(r.stdout) as { systemMessage: string }).systemMessage;
    expect(message).toContain('is not used until you accept it');
    expect(message).not.toMatch(RAW); // decoded, as the agent prints it
    expect(message).toContain('repo\\x1b]0;pwned\\x07\\x1b[2J');
    expect(message).toContain('\\x9b31m\\u202eevil\\u2066\\rx');
    expect(r.stderr).not.toMatch(RAW);
  }, 30_000);
});

describe('a hostile session id and command in the decision log', () => {
  it('should be written with C1 and bidirectional controls escaped, and read back by scan as they were', async () => {
    const root = tempFolder('terminal-escapes');
    const log = join(root, 'decisions.jsonl');
    const session = `s${EVIL}`;
    const payload = beforePayload('claude-code', session, { tool: 'Bash', args: { command: `cat ${EVIL}` } }, 't1');
    const r = await hook(['--agent', 'claude-code', '--state-dir', join(root, 'state'), '--log', log], payload);
    expect(r.code).toBe(0);
    const text = readFileSync(log, 'utf8');
    for (const line of text.split('\n')) expect(line).not.toMatch(RAW);
    const logged = JSON.parse(text) as { session_id: string; tool_input: { command: string } };
    expect(logged.session_id).toBe(session); // the same characters for a JSON reader
    expect(logged.tool_input.command).toBe(`cat ${EVIL}`);
    const scanned = loopwatch(['scan', log]); // still a hook payload log scan reads
    expect(scanned.stderr).toBe('');
    expect(scanned.stdout).toContain('1 session');
    expect(scanned.stdout).not.toMatch(/\x1b\]|[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/);
  }, 30_000);
});

describe('hook trust refusing under a process with a hostile name', () => {
  it("should name the agent's process with its controls as escapes", async () => {
    const root = tempFolder('terminal-escapes');
    const file = join(root, 'p', '.loopwatch.json');
    mkdirSync(join(root, 'p', '.git'), { recursive: true });
    writeFileSync(file, JSON.stringify({ allow: [{ tool: 'Bash', command: '^npm test\\b' }] }));
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_STATE_HOME: join(root, 'state') };
    for (const v of AGENT_VARIABLES) delete env[v];
    // a program run from inside an agent's package, named to reorder and recolour the refusal
    const bin = join(root, 'bin', '@openai', 'codex');
    mkdirSync(bin, { recursive: true });
    const launcher = join(bin, '\u202eevil\x9b31m');
    symlinkSync('/usr/bin/script', launcher);
    const r = await trustInTerminal([file], env, undefined, launcher);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/refused: it runs under ".*evil.*" \(pid \d+\)/);
    expect(r.stderr.replace(/\n$/, '')).not.toMatch(RAW);
    expect(r.stderr).toContain('\\u202eevil\\x9b31m');
  }, 30_000);
});
