/**
 * A loop message names the call by its preview, and the message reaches the person's terminal through
 * the agent (a hook's `systemMessage`, the MCP proxy's stderr, `explain`). hostile10: a tool named with an
 * ESC sequence (`Bash\x1b[2J`) was in the message raw, and so were bidirectional overrides and line
 * separators in args (JSON escapes C0 only): a message could clear the screen or read reversed. Previews
 * now write them as escapes (src/text/call-preview.ts, terminal-text.ts).
 */
import { describe, expect, it } from 'vitest';
import { LiveGuard } from '../src/index.js';
import { previewCall, previewJsonCall } from '../src/text/call-preview.js';

/** What a terminal acts on or reads in another order. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const CALLS: readonly (readonly [string, Record<string, unknown>])[] = [
  ['Bash\u001b[2J\u001b[Hx', { command: 'ls' }],
  ['Read', { file_path: '/tmp/\u202egpj.exe' }],
  ['Bash', { command: 'echo a\u2028b\u2066c\u009b31m' }],
  ['mcp__s__t\u0007\u000d', { q: '\u200f' }],
];

describe('call previews in what a terminal shows', () => {
  it('should escape controls and bidirectional marks in the tool name and the args', () => {
    for (const [tool, args] of CALLS) {
      const p = previewCall(tool, args);
      expect(p, JSON.stringify(p)).not.toMatch(UNSAFE);
      const fromText = previewJsonCall(tool, JSON.stringify(args));
      if (fromText !== null) expect(fromText).toBe(p);
    }
    expect(previewCall('Bash\u001b[2J', { command: 'ls' })).toBe('Bash\\x1b[2J {"command":"ls"}');
    expect(previewCall('Read', { file_path: '/tmp/\u202eevil' })).toBe('Read {"file_path":"/tmp/\\u202eevil"}');
  });

  it('should give loop messages without a raw control or bidirectional mark', () => {
    const guard = new LiveGuard();
    const messages: string[] = [];
    for (const [k, [tool, args]] of CALLS.entries()) {
      for (let i = 0; i < 5; i++) {
        const d = guard.propose(`s${k}`, { tool, args });
        if (d.message !== undefined) messages.push(d.message);
        guard.record(`s${k}`, { tool, args, error: 'failed' });
      }
    }
    expect(messages.length).toBeGreaterThanOrEqual(CALLS.length);
    for (const m of messages) expect(m, JSON.stringify(m)).not.toMatch(UNSAFE);
  });
});
