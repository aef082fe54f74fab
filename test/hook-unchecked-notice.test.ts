/**
 * A call the hook could not check is allowed (exit 0) and said where the person sees it: the agent's reply
 * field for the user (`systemMessage`: Claude Code, Codex, Gemini CLI), not only stderr, which the agents
 * do not put before the person (hostile33). Once per session until a call of it is checked again (a
 * marker in the state folder); on each call where no marker can be kept (a state folder that is a file, a
 * payload naming no session). A bad `LOOPWATCH_DECISION_LOG_MAX_BYTES` is told the same way, once.
 *
 * The first call of each case is a hook process (dist/hook/hook-main.cjs, or `loopwatch hook` where the
 * environment matters); the others run the same command in this process (helpers/hook-in-process.ts), and
 * the lock held too long runs runHook itself (its lock options).
 */
import { chmodSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DECISION_LOG_MAX_ENV } from '../src/hooks/decision-log.js';
import type { AgentName } from '../src/hooks/hook-agent.js';
import { runHook } from '../src/hooks/hook-run.js';
import { SessionFile } from '../src/hooks/session-file.js';
import { acquireLock } from '../src/hooks/state-lock.js';
import { AGENTS, beforePayload, afterPayload, hook, loopwatchAsync, readCall } from './helpers/hook-payloads.js';
import { hookInProcess } from './helpers/hook-in-process.js';
import { tempFolder } from './helpers/temp-folder.js';

/** The `systemMessage` of a reply (undefined when there is none, or no reply). */
function shown(stdout: string): string | undefined {
  if (stdout === '') return undefined;
  expect(stdout.endsWith('\n') && stdout.indexOf('\n') === stdout.length - 1).toBe(true);
  return (JSON.parse(stdout) as { systemMessage?: string }).systemMessage;
}

/** The reply's other fields than `systemMessage`: none, the call allowed as without loopwatch. */
function allowedOnly(stdout: string): void {
  const { systemMessage: _m, ...rest } = JSON.parse(stdout) as Record<string, unknown>;
  expect(rest).toEqual({});
}

const NOTICE = /^loopwatch could not check this call for loops and allowed it \(.{1,260}\); details on the hook's stderr$/;

/** A payload of `agent`'s tool event that names its session but lacks the tool. */
function toollessPayload(agent: AgentName, session: string): Record<string, unknown> {
  const { tool_name: _t, tool_input: _i, ...rest } = beforePayload(agent, session, readCall(agent, '/tmp/a.txt'), 'c1');
  return rest;
}

describe.each(AGENTS)('a call %s\'s hook could not check', (agent) => {
  const call = readCall(agent, '/tmp/a.txt');

  it('should be told in the reply on each call where the state folder is a file (no marker can be kept), still allowed', async () => {
    const file = join(tempFolder('hook-notice'), 'not-a-directory');
    writeFileSync(file, 'x');
    const args = ['--agent', agent, '--state-dir', file];
    const first = await hook(args, beforePayload(agent, 's', call, 'c1'));
    const second = await hookInProcess(args, afterPayload(agent, 's', call, 'c1'));
    const third = await hookInProcess(args, beforePayload(agent, 's', call, 'c2'));
    for (const r of [first, second, third]) {
      expect(r.code).toBe(0);
      expect(shown(r.stdout)).toMatch(NOTICE);
      expect(shown(r.stdout)).toMatch(/the session's state cannot be kept in .*not-a-directory/);
      allowedOnly(r.stdout);
      expect(r.stderr).toMatch(/the call is allowed without a loop check\n$/);
    }
  }, 60_000);

  it('should be told once per session for a payload it could not read, and on each call when the payload names no session', async () => {
    const dir = tempFolder('hook-notice');
    const args = ['--agent', agent, '--state-dir', dir];
    const first = await hook(args, toollessPayload(agent, 's'));
    expect(first.code).toBe(0);
    expect(shown(first.stdout)).toMatch(NOTICE);
    expect(shown(first.stdout)).toMatch(/the hook payload could not be read/);
    allowedOnly(first.stdout);
    const again = await hookInProcess(args, toollessPayload(agent, 's'));
    expect([again.code, again.stdout]).toEqual([0, '']);
    expect(again.stderr).toMatch(/the hook payload could not be read/);
    expect(shown((await hookInProcess(args, toollessPayload(agent, 'other'))).stdout)).toMatch(NOTICE);
    for (let i = 0; i < 2; i++) expect(shown((await hookInProcess(args, 'not json')).stdout)).toMatch(/it is not JSON/);
  }, 60_000);

  it('should be told once while a session\'s calls go unchecked, and again when it comes back after a checked call', () => {
    const dir = tempFolder('hook-notice');
    const run = (payload: unknown) => runHook(JSON.stringify(payload), { agent, stateDir: dir, lock: { waitMs: 30, maxWaitMs: 60 } });
    const hold = () => acquireLock(new SessionFile(dir, agent, 's').lockPath) as () => void;
    let release = hold();
    const told = run(beforePayload(agent, 's', call, 'c1'));
    const quiet = run(afterPayload(agent, 's', call, 'c1'));
    release();
    const checked = [run(beforePayload(agent, 's', call, 'c2')), run(afterPayload(agent, 's', call, 'c2'))];
    release = hold();
    const back = run(beforePayload(agent, 's', call, 'c3'));
    release();
    expect(shown(told.stdout)).toMatch(/stayed locked by another hook/);
    expect(told.stderr).toMatch(/stayed locked by another hook; the call is allowed without a loop check\n$/);
    expect([told.exitCode, quiet.exitCode, quiet.stdout]).toEqual([0, 0, '']);
    expect(quiet.stderr).toMatch(/stayed locked by another hook; the call is allowed without a loop check\n$/);
    expect(checked.map((r) => [r.stdout, r.stderr])).toEqual([['', ''], ['', '']]);
    expect(shown(back.stdout)).toMatch(NOTICE);
  });

  it.skipIf(process.platform === 'win32')('should keep no marker in a state folder that is not the user\'s own, and so tell each call', async () => {
    const dir = tempFolder('hook-notice');
    chmodSync(dir, 0o777);
    writeFileSync(join(dir, 'notes.txt'), 'a shared folder');
    for (let i = 0; i < 2; i++) {
      const r = await hookInProcess(['--agent', agent, '--state-dir', dir], toollessPayload(agent, 's'));
      expect([r.code, shown(r.stdout)]).toEqual([0, expect.stringMatching(/the hook payload could not be read/)]);
    }
    expect(readdirSync(dir)).toEqual(['notes.txt']);
  });

  it('should redact a secret from what the person is shown, and keep it to one short line', async () => {
    const secret = 'sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    const r = await hookInProcess(['--agent', agent, '--state-dir', tempFolder('hook-notice')], { ...toollessPayload(agent, 's'), tool_name: `${secret}${'x\n'.repeat(2000)}` });
    const m = shown(r.stdout) as string;
    expect(m).toMatch(NOTICE);
    expect(m).not.toContain('ABCDEFGHIJKLMNOP');
    expect(m.length).toBeLessThan(400);
  });
});

describe.each(AGENTS)(`a bad ${DECISION_LOG_MAX_ENV} for %s's decision log`, (agent) => {
  it('should be told once per session in the reply, on stderr each call, the calls checked and logged', async () => {
    const dir = tempFolder('hook-notice');
    const logFile = join(dir, 'decisions.jsonl');
    const args = ['hook', '--agent', agent, '--state-dir', join(dir, 'state'), '--log', logFile];
    const env = { ...process.env, [DECISION_LOG_MAX_ENV]: '64 megabytes' };
    const call = readCall(agent, '/tmp/a.txt');
    const first = await loopwatchAsync(args, JSON.stringify(beforePayload(agent, 's', call, 'c1')), env);
    expect(first.code).toBe(0);
    expect(shown(first.stdout)).toBe(`loopwatch: ${DECISION_LOG_MAX_ENV}="64 megabytes" is not a size (N, or N with K, M or G for KiB, MiB, GiB: 64M); the decision log is kept under 64 MiB`);
    allowedOnly(first.stdout);
    const after = await hookInProcess(args.slice(1), afterPayload(agent, 's', call, 'c1'), { env });
    expect([after.code, after.stdout]).toEqual([0, '']);
    for (const r of [first, after]) expect(r.stderr).toMatch(new RegExp(`^loopwatch hook: ${DECISION_LOG_MAX_ENV}="64 megabytes" is not a size`));
    expect(shown((await hookInProcess(args.slice(1), beforePayload(agent, 'other', call, 'c2'), { env })).stdout)).toMatch(/is not a size/);
    const good = await hookInProcess(args.slice(1), beforePayload(agent, 'third', call, 'c3'), { env: { ...env, [DECISION_LOG_MAX_ENV]: '16M' } });
    expect(good).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(logFile, 'utf8').trimEnd().split('\n')).toHaveLength(4);
  }, 60_000);
});
