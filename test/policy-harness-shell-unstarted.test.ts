/**
 * Claude Code's Bash tool that could not start is the harness's failure, not the agent's (quiet15). The tool
 * makes a folder of its own (`/tmp/claude-<n>`) before each command; on a machine where it may not (holdout5:
 * three sessions of one person's Claude Code under Termux), every command fails with Node's
 * "EACCES: permission denied, mkdir '/tmp/claude-10603'" whatever it is (`mkdir -p bbbbb`, `pwd`, `cd ~ &&
 * mkdir`), and the dead end warned at the third call. src/text/infra-failure.ts reads that whole error as an
 * infrastructure failure, as Codex's sandbox that could not start already was: no dead end. The same command
 * failing so more than INFRA_RETRIES times back to back still fires (quiet14's bound), and a command that ran
 * and could not make such a folder (`mkdir: cannot create directory ...`) is still the agent's failure.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { isInfraFailure } from '../src/text/infra-failure.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const UNSTARTED = "EACCES: permission denied, mkdir '/tmp/claude-10603'";
const bash = (command: string, error: string): ToolEvent => ({ tool: 'Bash', args: { command }, result: error, error });

/** A person trying the agent on a machine where its shell cannot start: each command different. */
const TRIES: ToolEvent[] = [
  bash('mkdir -p bbbbb && ls -ld bbbbb', UNSTARTED),
  bash('pwd && mkdir -p ~/bbbbb && ls -ld ~/bbbbb', UNSTARTED),
  bash('mkdir -p /data/data/com.termux/files/home/bbbbb && ls -ld /data/data/com.termux/files/home/bbbbb', UNSTARTED),
  bash('pwd', UNSTARTED),
  bash('cd ~ && mkdir -p bbbbb && ls -ld bbbbb', UNSTARTED),
];

/** The same command, again and again, nothing between. */
const SAME = Array.from({ length: 10 }, () => bash('mkdir -p bbbbb && ls -ld bbbbb', UNSTARTED));

/** Commands that ran, each failing to make such a folder itself. */
const RAN = ['a', 'b', 'c', 'd', 'e'].map((x) => bash(`mkdir /tmp/claude-${x}`, `Exit code 1\nmkdir: cannot create directory '/tmp/claude-${x}': Permission denied`));

describe("Claude Code's shell that could not start", () => {
  it("should read Node's error at the tool's own folder, alone, as the infrastructure's", () => {
    expect(isInfraFailure(UNSTARTED)).toBe(true);
    expect(isInfraFailure("EACCES: permission denied, mkdir '/data/data/com.termux/files/usr/tmp/claude-1000-cwd'")).toBe(true);
  });

  it('should read other folders, a program that ran and longer failures as before', () => {
    expect(isInfraFailure("EACCES: permission denied, mkdir '/usr/lib/node_modules/pnpm'")).toBe(false);
    expect(isInfraFailure("mkdir: cannot create directory '/tmp/claude-a': Permission denied")).toBe(false);
    expect(isInfraFailure(`npm ERR! ${UNSTARTED}\nnpm ERR! The operation was rejected by your operating system.`)).toBe(false);
  });
});

describe.each(ENGINES)('commands under a shell that could not start (%s engine)', (engine) => {
  it('should not flag different commands failing so, one- or two-phase', () => {
    expect(flaggedActions(TRIES, engine)).toEqual([]);
    expect(liveActions(TRIES, engine)).toEqual([]);
  });

  it('should still flag the same command failing so again and again', () => {
    expect(flaggedActions(SAME, engine)).toContain('break');
    expect(liveActions(SAME, engine).some((a) => a === 'deny' || a === 'stop')).toBe(true);
  });

  it('should still flag commands that ran and failed', () => {
    expect(flaggedActions(RAN, engine)).toContain('warn');
  });
});
