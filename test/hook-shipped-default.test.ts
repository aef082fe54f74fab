/**
 * `loopwatch hook` without --preset or --config runs the shipped (fitted) default, as the library does
 * (issue 27: one default everywhere), and a session's state written under the hand-tuned default (what the
 * hook ran without flags before; `--preset hand-tuned` writes the same options) is read by it as it is, not
 * set aside. Through the built CLI as Claude Code runs it, a process per hook call for the first call of
 * each replay and every third after it, the others through the same hook command in this process
 * (helpers/hook-in-process.ts, on the same state files).
 *
 * A-B-A-B edits that get reverted: warned at the 5th call, denied at the 6th, the run stopped at the 7th
 * (the cycle weighed 0.8, one call later than the hand-tuned values' 4th, 5th and 6th), still stopped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { replayHook } from './helpers/hook-payloads.js';
import { hookVerbInProcess } from './helpers/hook-in-process.js';
import { STUCK } from './helpers/live-scenarios.js';

const stateDir = mkdtempSync(join(tmpdir(), 'loopwatch-hook-shipped-'));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

const reverted = STUCK.find((s) => s.name === 'A-B-A-B edits that get reverted');
const failingBuild = STUCK.find((s) => s.name === 'the same failing command again and again');

/** Calls of a replay made by hook processes: the first and every third after it. */
const PROCESS_EVERY = 3;

describe('loopwatch hook and the shipped default', () => {
  it('should warn, deny and stop A-B-A-B reverted edits as the fitted default does (hand-tuned: one call earlier)', async () => {
    const calls = reverted?.calls ?? [];
    expect(calls.length).toBe(10);
    const shipped = await replayHook('claude-code', 'ab-default', calls, ['--state-dir', stateDir], PROCESS_EVERY);
    expect(shipped.map((s) => s.propose)).toEqual(['allow', 'allow', 'allow', 'allow', 'warn', 'deny', 'stop', 'stop', 'stop', 'stop']);
    const hand = await replayHook('claude-code', 'ab-hand', calls, ['--state-dir', stateDir, '--preset', 'hand-tuned'], PROCESS_EVERY);
    expect(hand.map((s) => s.propose)).toEqual(['allow', 'allow', 'allow', 'warn', 'deny', 'stop', 'stop', 'stop', 'stop', 'stop']);
    for (const s of [...shipped, ...hand]) expect(s.stderr).toBe('');
  }, 120_000);

  it('should read a session written under the hand-tuned default and go on with it, and hook reset should match it', async () => {
    const calls = failingBuild?.calls ?? [];
    // two failing builds recorded under the hand-tuned values, as an older loopwatch hook without flags wrote them
    const before = await replayHook('claude-code', 'old-state', calls.slice(0, 2), ['--state-dir', stateDir, '--preset', 'hand-tuned'], PROCESS_EVERY);
    expect(before.map((s) => s.propose)).toEqual(['allow', 'allow']);
    // the third, with no flags: the session goes on (warned: its third failing build), not started over (allowed)
    const after = await replayHook('claude-code', 'old-state', calls.slice(2, 4), ['--state-dir', stateDir], PROCESS_EVERY);
    expect(after.map((s) => s.propose)).toEqual(['warn', 'deny']);
    expect(after.every((s) => s.stderr === '')).toBe(true);
    // reset without flags takes the options as the hook does: the session gets a fresh start, its state kept
    const r = await hookVerbInProcess(['reset', '--session', 'old-state', '--state-dir', stateDir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('fresh start  claude-code old-state\n');
    expect(r.stdout).not.toContain('written under other detection options');
  }, 120_000);
});
