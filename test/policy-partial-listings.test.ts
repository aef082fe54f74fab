/**
 * An `ls` of several paths, some of them not there, is a probe that found part of what it looked for, not
 * the agent's wall. A Claude Code 2.1 session (holdout2 4eb362e5) checks a project's set-up with
 * `ls CLAUDE.md TODO.md program.md .claude/settings.json 2>&1`, `ls .claude/ 2>&1; ls -d .claude/logs/ ...`
 * and `ls .claude/ratchet-state.json ...`: each exits 2, lists what it found and says "ls: cannot access
 * 'x': No such file or directory" for the rest. A listing made each a real failure (not a silent probe), so
 * the three read as a dead end, warned at the 10th call. The missing paths are answers, as a glob that
 * matched nothing is. The same `ls` failing again and again still fires, and so does `ls` failing another
 * way (permission denied) or another program's "No such file or directory".
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { listedSomeMissing } from '../src/text/partial-listing.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const P = '/home/me/Projects/app';
const missing = (path: string): string => `ls: cannot access '${path}': No such file or directory`;
/** A Claude Code `Bash` call failing with exit 2 and `lines`. */
const failing = (command: string, lines: string[]): ToolEvent => {
  const text = ['Exit code 2', ...lines].join('\n');
  return { tool: 'Bash', args: { command, description: 'Check files' }, result: text, error: text };
};
const ok = (command: string, result: string): ToolEvent => ({ tool: 'Bash', args: { command, description: 'Run' }, result });

const PROBES: ToolEvent[] = [
  ok('git log --oneline -3', '5c8be2c standalone\n07ab2a2 standalone'),
  failing(`ls ${P}/CLAUDE.md ${P}/TODO.md ${P}/.claude/settings.json 2>&1`, [missing(`${P}/.claude/settings.json`), `${P}/CLAUDE.md`, `${P}/TODO.md`]),
  ok('jq --version 2>&1; git --version 2>&1', 'jq-1.8.1\ngit version 2.51.0'),
  failing(`ls ${P}/.claude/ 2>&1; ls -d ${P}/.claude/logs/ ${P}/.claude/state/ 2>&1`, ['HANDOFF.md', 'JOURNAL.md', missing(`${P}/.claude/logs/`), missing(`${P}/.claude/state/`)]),
  ok(`mkdir -p ${P}/.claude/logs ${P}/.claude/state && echo created`, 'created'),
  failing(`ls ${P}/.claude/ratchet-state.json ${P}/.claude/hooks/ 2>&1`, [missing(`${P}/.claude/ratchet-state.json`), `${P}/.claude/hooks/:`, 'check.sh']),
  ok(`git -C ${P} branch --show-current`, 'main'),
  failing(`ls -la ${P}/docs ${P}/README.md`, [missing(`${P}/README.md`), `${P}/docs:`, 'total 8', 'drwxr-xr-x 2 me me 4096 Jan 1 10:00 .']),
  ok('echo "state files created"', 'state files created'),
];

/** The same `ls` of a missing path, again and again. */
const SAME: ToolEvent[] = Array.from({ length: 6 }, () => failing(`ls ${P}/a.json ${P}/b.json`, [missing(`${P}/b.json`), `${P}/a.json`]));

describe('an ls that found some of its paths', () => {
  it('should read an ls saying only that some paths are not there', () => {
    expect(listedSomeMissing(`ls ${P}/a ${P}/b 2>&1`, `Exit code 2\n${missing(`${P}/b`)}\n${P}/a`)).toBe(true);
    expect(listedSomeMissing('ls -la src lib', `Exit code 2\nls: lib: No such file or directory\nsrc:\ntotal 0`)).toBe(true);
    expect(listedSomeMissing('ls a; ls -d b', `Exit code 2\nx.md\n${missing('b')}`)).toBe(true);
    expect(listedSomeMissing('cd /repo && ls a b', `Exit code 2\n${missing('b')}\na`)).toBe(true);
  });

  it('should read other failures of ls, other programs and pipes as real failures', () => {
    expect(listedSomeMissing('ls /root', "ls: cannot open directory '/root': Permission denied")).toBe(false);
    expect(listedSomeMissing('ls --bogus', "ls: unrecognized option '--bogus'\nTry 'ls --help' for more information.")).toBe(false);
    expect(listedSomeMissing('cat a b', 'cat: b: No such file or directory')).toBe(false);
    expect(listedSomeMissing('ls a | grep x', missing('a'))).toBe(false);
    expect(listedSomeMissing('ls a && make', `${missing('a')}`)).toBe(false);
    expect(listedSomeMissing('ls a b', `${missing('b')}\nbash: line 1: foo: command not found`)).toBe(false);
    expect(listedSomeMissing('ls a', 'Exit code 2')).toBe(false);
  });
});

describe.each(ENGINES)('ls probes finding part of what they looked for (%s engine)', (engine) => {
  it('should not flag different listings with some paths missing, one- or two-phase', () => {
    expect(flaggedActions(PROBES, engine)).toEqual([]);
    expect(liveActions(PROBES, engine)).toEqual([]);
  });

  it('should still flag the same listing failing again and again', () => {
    expect(flaggedActions(SAME, engine)).toContain('break');
    expect(liveActions(SAME, engine)).toContain('deny');
  });
});
