/**
 * A server started again on another port, each port found taken, is no dead end. A Claude Code session
 * (holdout8, Windows, Git Bash) restarts a dashboard after importing data: a check script fails with a
 * traceback, then `streamlit run dashboard.py --server.port 8501` fails "Port 8501 is already in use", and so
 * do 8504, 8505 and 8510; port 9000 starts (the call is cut at its 8 s limit with the server's "You can now
 * view your app" lines). The four failures made a dead end with the script's: two-phase, the proposal of
 * port 9000 was blocked, the one call that worked. Each try is a probe of a different port that found it
 * in use, as silent as a search that found nothing (src/text/port-taken.ts). The same port tried again and
 * again is still a loop, and different servers failing with one real error are still a wall.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { PORT_LOOK, saysPortTaken } from '../src/text/port-taken.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

/** A Claude Code Bash call failing with `out` (the reader gives the output as the error and the result). */
const bash = (command: string, out: string): ToolEvent => ({ tool: 'Bash', args: { command, timeout: 8000 }, result: out, error: out });
const ok = (tool: string, args: Record<string, unknown>, result: string): ToolEvent => ({ tool, args, result });
const serve = (port: number): string => `cd app && streamlit run board.py --server.port ${port}`;
const taken = (port: number, at: string): string => `2025-01-02 10:${at}.120 Port ${port} is already in use`;

/** The session's shape: work, a check script failing, four ports taken, the fifth started. */
const ports: ToolEvent[] = [
  ok('Write', { file_path: 'C:\\w\\app\\load.py', content: 'import csv\n' }, 'File created successfully at: C:\\w\\app\\load.py'),
  ok('Bash', { command: 'cd app && python load.py' }, 'Loaded 48 rows for region A'),
  ok('Write', { file_path: 'C:\\w\\app\\check.py', content: 'import json\n' }, 'File created successfully at: C:\\w\\app\\check.py'),
  bash('cd app && python check.py', 'Traceback (most recent call last):\n  File "C:\\w\\app\\check.py", line 7, in <module>\n    main()\nKeyError: \'region\''),
  bash(serve(8501), taken(8501, '00:01')),
  bash(serve(8504), taken(8504, '00:13')),
  bash(serve(8505), taken(8505, '00:22')),
  bash(serve(8510), taken(8510, '00:35')),
  bash(serve(9000), 'Command timed out after 8s\n\r\n  You can now view your Streamlit app in your browser.\r\n\r\n  Local URL: http://localhost:9000'),
  ok('TodoWrite', { todos: [{ content: 'See why the board shows two regions', status: 'in_progress' }] }, 'Todos have been modified successfully.'),
  ok('Read', { file_path: 'C:\\w\\app\\board.py', offset: 70, limit: 20 }, '    70→    st.title("Board")'),
];
/** The same port tried again and again, the server holding it never stopped. */
const samePort: ToolEvent[] = Array.from({ length: 6 }, () => bash(serve(8501), taken(8501, '00:01')));
/** Different servers failing with one real error of the program's own. */
const sameError: ToolEvent[] = [8501, 8502, 8503, 8504, 8505].map((p) => bash(serve(p), "ModuleNotFoundError: No module named 'plotly'"));

describe('what a server says of a port that is taken', () => {
  it("should read each server's message that its port or address is in use", () => {
    expect(saysPortTaken('2025-07-25 21:18:48.692 Port 8501 is already in use')).toBe(true);
    expect(saysPortTaken('Port 5000 is in use by another program. Either identify and stop that program, or start the server with a different port.')).toBe(true);
    expect(saysPortTaken("Address already in use\nPort 5000 is in use by another program.\nOn macOS, try disabling the 'AirPlay Receiver' service from System Preferences -> General -> AirDrop & Handoff.")).toBe(true);
    expect(saysPortTaken('OSError: [Errno 98] Address already in use')).toBe(true);
    expect(saysPortTaken("ERROR:    [Errno 48] error while attempting to bind on address ('0.0.0.0', 8000): address already in use")).toBe(true);
    expect(saysPortTaken('Error: listen EADDRINUSE: address already in use :::3000\nExit code: 1')).toBe(true);
    expect(saysPortTaken('listen tcp :8080: bind: address already in use')).toBe(true);
    expect(saysPortTaken('Address already in use - bind(2) for "127.0.0.1" port 3000 (Errno::EADDRINUSE)')).toBe(true);
    expect(saysPortTaken('[2026-01-02T03:04:05Z] ERROR: Only one usage of each socket address (protocol/network address/port) is normally permitted.')).toBe(true);
    expect(saysPortTaken('\u001b[31mPort 3000 is already in use\u001b[0m')).toBe(true);
    // Gemini CLI's label before a shell's output
    expect(saysPortTaken('Output: Error: listen EADDRINUSE: address already in use 127.0.0.1:3000\nExit Code: 1')).toBe(true);
  });

  it('should read a server that ran, or another error beside the port, as a real failure', () => {
    expect(saysPortTaken("ModuleNotFoundError: No module named 'plotly'")).toBe(false);
    expect(saysPortTaken('Port 8501 is already in use\nKeyError: region')).toBe(false);
    expect(saysPortTaken('Traceback (most recent call last):\n  File "app.py", line 3, in <module>\nOSError: [Errno 98] Address already in use')).toBe(false);
    expect(saysPortTaken('The disk is in use by another process')).toBe(false);
    expect(saysPortTaken('Error: Browser is already in use for /tmp/profile, use --isolated to run multiple instances')).toBe(false);
    expect(saysPortTaken("Cannot use Foo\\Bar as Bar because the name is already in use")).toBe(false);
    expect(saysPortTaken('Exit code: 1')).toBe(false);
    expect(saysPortTaken('')).toBe(false);
    expect(saysPortTaken(`${'x'.repeat(PORT_LOOK + 10)}\nPort 8501 is already in use`)).toBe(false);
  });
});

describe.each(ENGINES)('a server started on another port each time one is taken (%s engine)', (engine) => {
  it('should not break the session one-phase, nor block the port that works two-phase', () => {
    expect(flaggedActions(ports, engine)).not.toContain('break');
    expect(liveActions(ports, engine)).not.toContain('deny');
    expect(liveActions(ports, engine)).not.toContain('stop');
  });

  it('should still break the same port tried again and again', () => {
    expect(flaggedActions(samePort, engine)).toContain('break');
    expect(liveActions(samePort, engine)).toContain('deny');
  });

  it('should still flag different servers failing with one real error', () => {
    expect(flaggedActions(sameError, engine)).toContain('warn');
    expect(liveActions(sameError, engine)).toContain('warn');
  });
});
