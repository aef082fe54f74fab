/**
 * A hook payload's tool input (or response) holding more than MAX_PAYLOAD_VALUES values is kept as its JSON
 * text, capped as a long string is (its head, its length and a fingerprint of the whole: capValue in
 * src/hooks/hook-payload.ts), so the hook's work on it (similar args, the pending call written into the
 * session's state file and read back by every later hook of the session) costs a string, not 300,000
 * objects. Before, a 5 MB PreToolUse of 300,000 small objects took 5-8 s at load ~19 (15 s at load ~30:
 * past Claude Code's 10 s hook timeout) and left an 8 MB state file. Values within the budget (the real
 * sessions' largest holds 1,874) are copied as before.
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_PAYLOAD_VALUES, MAX_TEXT, MAX_VALUE_DEPTH, capValue } from '../src/hooks/hook-payload.js';
import type { AgentName } from '../src/hooks/hook-agent.js';
import { AGENTS, afterPayload, beforePayload, proposeAction } from './helpers/hook-payloads.js';
import { HOOK_MAIN, tempDir } from './helpers/cli.js';

/** `{command, items: [{a: 0}, ...]}`: 2 + 2n values. */
function objects(n: number, last = 0): Record<string, unknown> {
  const items = Array.from({ length: n }, (_, i) => ({ a: i }));
  (items[n - 1] as { a: number }).a += last;
  return { command: 'x', items };
}

/** The marker capText puts after a long string's head. */
const MARKER = /…\[loopwatch: (\d+) characters, xxh64 [0-9a-f]{16}\]$/;

describe('capValue past MAX_PAYLOAD_VALUES', () => {
  it('should keep a value holding more values as its JSON text, capped, telling apart values that differ at the end', () => {
    const v = objects(150_000);
    const kept = capValue(v);
    expect(typeof kept).toBe('string');
    const text = JSON.stringify(v);
    expect((kept as string).slice(0, MAX_TEXT)).toBe(text.slice(0, MAX_TEXT));
    expect((kept as string).match(MARKER)?.[1]).toBe(String(text.length));
    // the fingerprint is of the whole text: a value differing in its last element is kept otherwise
    expect(capValue(objects(150_000, 1))).not.toBe(kept);
    expect(capValue(objects(150_000))).toBe(kept);
  });

  it('should count the values as they are kept: at the budget a copy as before, one more the text', () => {
    // 2 + 2n values: n = budget / 2 - 1 is exactly at it
    const at = objects(MAX_PAYLOAD_VALUES / 2 - 1);
    expect(capValue(at)).toEqual(at);
    expect(capValue(at)).not.toBe(at);
    const over = { ...at, one: 1 };
    expect(typeof capValue(over)).toBe('string');
    // object members and array elements alike; gemini's results start one level down
    const keys = Object.fromEntries(Array.from({ length: MAX_PAYLOAD_VALUES }, (_, i) => [`k${i}`, i]));
    expect(capValue(keys)).toEqual(keys);
    expect(typeof capValue({ ...keys, one: 1 })).toBe('string');
    expect(typeof capValue({ keys }, 1)).toBe('string');
  });

  it('should write a value nested deeper than JSON text goes with the nesting past MAX_VALUE_DEPTH replaced', () => {
    let deep: unknown = 0;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const v = { deep, wide: Array(MAX_PAYLOAD_VALUES).fill(0) };
    expect(() => JSON.stringify(v)).toThrow(RangeError);
    const kept = capValue(v) as string;
    expect(typeof kept).toBe('string');
    expect(kept).toContain(`${'['.repeat(MAX_VALUE_DEPTH - 1)}"[loopwatch: nested too deep]"`);
    // within the budget, as before: the nesting replaced in the copy
    expect(JSON.stringify(capValue({ deep }))).toBe(`{"deep":${'['.repeat(MAX_VALUE_DEPTH - 1)}"[loopwatch: nested too deep]"${']'.repeat(MAX_VALUE_DEPTH - 1)}}`);
  });
});

/** One run of the real hook process, killed after `ms`. */
function hookWithin(args: readonly string[], payload: unknown, ms: number): Promise<{ code: number | null; killed: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HOOK_MAIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, ms);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, killed, stdout, stderr });
    });
    child.stdin.end(JSON.stringify(payload));
  });
}

/** Bytes of the state files (`*.lwhook`) in `dir`. */
function stateBytes(dir: string): number {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.lwhook'))
    .reduce((n, f) => n + statSync(join(dir, f)).size, 0);
}

describe('a hook payload of 300,000 small objects, through the real hook process', () => {
  // each agent's PreToolUse and PostToolUse, the value as tool_input and as the response; killed after 120 s.
  // Against integ (43c0a5d) each ends (7-8 s a process at load ~19) but leaves 8.4 MB of state per session
  // (the pending call's args, read and written again by every later hook of the session): 3 of 3 fail
  for (const agent of AGENTS) {
    it(`should check ${agent}'s call on the value's capped text, its state a few kilobytes`, { timeout: 300_000 }, async () => {
      const dir = tempDir();
      const args = ['--agent', agent, '--state-dir', join(dir, 'state')];
      const call = { tool: 'Bash', args: objects(150_000), result: 'ok' };
      const before = await hookWithin(args, beforePayload(agent as AgentName, 'big', call, 'call_1'), 120_000);
      expect(before.killed).toBe(false);
      expect(before.code, before.stderr).toBe(0);
      expect(before.stderr).toBe('');
      expect(proposeAction(agent, before.stdout)).toBe('allow');
      // the call is in flight: its args are in the state file, capped
      expect(stateBytes(join(dir, 'state'))).toBeLessThan(256 * 1024);
      const after = afterPayload(agent as AgentName, 'big', { ...call, result: 'ok' }, 'call_1');
      // the response as a value of as many objects where the agent sends an object (Codex sends text)
      if (agent === 'claude-code') after.tool_response = objects(150_000).items;
      if (agent === 'gemini') after.tool_response = { llmContent: objects(150_000).items };
      const recorded = await hookWithin(args, after, 120_000);
      expect(recorded.killed).toBe(false);
      expect(recorded.code, recorded.stderr).toBe(0);
      expect(recorded.stderr).toBe('');
      expect(stateBytes(join(dir, 'state'))).toBeLessThan(256 * 1024);
    });
  }
});
