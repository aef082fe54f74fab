/**
 * Hooks of one session running in parallel, as agents run the tool calls of one turn: no call lost, none
 * counted twice, no state file half-written; a lock left by a dead hook is broken at once, a lock held too
 * long makes the hook allow the call (fail open) after a bounded wait.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { AgentName } from '../src/hooks/hook-agent.js';
import type { HookStatus } from '../src/hooks/hook-status.js';
import { SessionFile } from '../src/hooks/session-file.js';
import { LOCK_WAIT_MS } from '../src/hooks/state-lock.js';
import { CLI, type CliRun } from './helpers/cli.js';
import { hookVerbInProcess, loadHookVerbs } from './helpers/hook-in-process.js';
import { UNCHECKED_REPLY, afterPayload, beforePayload, hook } from './helpers/hook-payloads.js';
import type { ScriptedCall } from './helpers/live-scenarios.js';
import { tempFolder } from './helpers/temp-folder.js';

const CALLS: readonly ScriptedCall[] = Array.from({ length: 10 }, (_, i) => ({ tool: 'Read', args: { file_path: `/repo/src/part${i}.ts` }, result: `export const part${i} = ${i};` }));

/** The session's stats, from its state file. */
function statsOf(dir: string, agent: AgentName, session: string): { checks: number; blocked: number } {
  const d = new LoopDetector({}, session);
  d.restore(new SessionFile(dir, agent, session).read() as Uint8Array);
  const s = d.stats();
  d.dispose();
  return s;
}

function expectQuiet(runs: readonly CliRun[]): void {
  for (const r of runs) expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
}

describe('ten hook processes of one session at once', () => {
  // hook status runs in this process: its modules loaded outside the cases' clocks (helpers/hook-in-process.ts)
  beforeAll(loadHookVerbs, 180_000);

  it.each(['claude-code', 'gemini'] as const)('should count every call exactly once (%s payloads)', async (agent) => {
    const dir = tempFolder('hook-parallel');
    const args = ['--agent', agent, '--state-dir', dir];
    // ten calls proposed at once, then their ten results at once
    expectQuiet(await Promise.all(CALLS.map((c, i) => hook(args, beforePayload(agent, 'turn', c, `toolu_${i}`)))));
    expectQuiet(await Promise.all(CALLS.map((c, i) => hook(args, afterPayload(agent, 'turn', c, `toolu_${i}`)))));
    expect(statsOf(dir, agent, 'turn').checks).toBe(10);
    // ten calls each proposed then recorded, the ten running at once
    expectQuiet(
      (await Promise.all(CALLS.map(async (c, i) => [await hook(args, beforePayload(agent, 'mixed', c, `toolu_${i}`)), await hook(args, afterPayload(agent, 'mixed', c, `toolu_${i}`))]))).flat(),
    );
    expect(statsOf(dir, agent, 'mixed').checks).toBe(10);
    expect(readdirSync(dir).filter((n) => /\.(lock|tmp|bad|broken)$/.test(n))).toEqual([]);
  }, 120_000);

  it('thirty at once: should check every call or count it as not checked, and say so once, never losing one silently', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopwatch-hook-parallel-'));
    try {
      const args = ['--agent', 'claude-code', '--state-dir', dir];
      const many = Array.from({ length: 30 }, (_, i) => ({ tool: 'Read', args: { file_path: `/repo/src/file${i}.ts` }, result: `${i}` }));
      const before = await Promise.all(many.map((c, i) => hook(args, beforePayload('claude-code', 'wide', c, `toolu_${i}`))));
      const after = await Promise.all(many.map((c, i) => hook(args, afterPayload('claude-code', 'wide', c, `toolu_${i}`))));
      const told = (runs: readonly CliRun[]): number => runs.filter((r) => /stayed locked by another hook; the call is allowed without a loop check\n$/.test(r.stderr)).length;
      for (const r of [...before, ...after]) expect([r.code, r.stderr === '' || told([r]) === 1]).toEqual([0, true]);
      // the hooks are processes (their locks between processes are the point); status reads their files here
      const status = await hookVerbInProcess(['status', '--state-dir', dir, '--session', 'wide', '--json']);
      const [s] = (JSON.parse(status.stdout) as HookStatus).sessions;
      // every call was counted in, and is either checked or counted as not checked, as its hook said
      expect(s!.calls).toEqual({ proposals: 30, checked: 30 - told(before), records: 30, recorded: 30 - told(after) });
      expect([s!.unchecked, s!.dropped]).toEqual([told(before), told(after)]);
      // what was checked is in the state: no decision lost between the lock holders
      expect([s!.notes!.proposals, s!.notes!.records]).toEqual([30 - told(before), 30 - told(after)]);
      const text = (await hookVerbInProcess(['status', '--state-dir', dir])).stdout;
      expect(text).toContain(`calls:     30 before they ran (${told(before)} not checked), 30 after (${told(after)} not recorded)`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('should break a lock whose hook is gone, at once', async () => {
    const dir = tempFolder('hook-lock');
    const file = new SessionFile(dir, 'claude-code', 'stale');
    file.ensureDir();
    writeFileSync(file.lockPath, `999999999 ${Date.now()} deadbeef`); // no such process
    const r = await hook(['--state-dir', dir], beforePayload('claude-code', 'stale', CALLS[0] as ScriptedCall, 'toolu_0'));
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(readdirSync(dir).filter((n) => n.endsWith('.lock'))).toEqual([]);
  }, 60_000);

  it(`should allow the call after waiting ${LOCK_WAIT_MS} ms for a lock a live hook holds`, async () => {
    const dir = tempFolder('hook-lock');
    const file = new SessionFile(dir, 'claude-code', 'held');
    file.ensureDir();
    writeFileSync(file.lockPath, `${process.pid} ${Date.now()} cafe`); // this test's process: alive
    const t = Date.now();
    const r = await hook(['--state-dir', dir], beforePayload('claude-code', 'held', CALLS[0] as ScriptedCall, 'toolu_0'));
    expect(Date.now() - t).toBeGreaterThanOrEqual(LOCK_WAIT_MS);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(UNCHECKED_REPLY);
    expect(r.stderr).toMatch(/^loopwatch hook: Claude Code: Error: the state of session "held" stayed locked by another hook; the call is allowed without a loop check\n$/);
    const [s] = (JSON.parse((await hookVerbInProcess(['status', '--state-dir', dir, '--json'])).stdout) as HookStatus).sessions;
    expect([s!.calls, s!.unchecked]).toEqual([{ proposals: 1, checked: 0, records: 0, recorded: 0 }, 1]);
  }, 60_000);

  it('should count as not checked the call of a hook killed while it waits (as an agent kills one past its timeout)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopwatch-hook-lock-'));
    try {
      const file = new SessionFile(dir, 'claude-code', 'killed');
      file.ensureDir();
      writeFileSync(file.lockPath, `${process.pid} ${Date.now()} cafe`);
      const child = spawn(process.execPath, [CLI, 'hook', '--state-dir', dir], { stdio: ['pipe', 'ignore', 'ignore'] });
      child.stdin.end(JSON.stringify(beforePayload('claude-code', 'killed', CALLS[0] as ScriptedCall, 'toolu_0')));
      for (let i = 0; i < 200 && !existsSync(file.callsPath); i++) await new Promise((r) => setTimeout(r, 50));
      child.kill('SIGKILL');
      await new Promise((r) => child.once('close', r));
      const [s] = (JSON.parse((await hookVerbInProcess(['status', '--state-dir', dir, '--json'])).stdout) as HookStatus).sessions;
      expect([s!.calls, s!.unchecked]).toEqual([{ proposals: 1, checked: 0, records: 0, recorded: 0 }, 1]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
