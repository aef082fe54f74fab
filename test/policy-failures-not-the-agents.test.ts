/**
 * Failures that are not the agent's wall are no dead end: different searches that found nothing (Codex's
 * `rg` exits 1 and prints nothing; Claude Code says "Exit code 1"), and calls the person declined or
 * interrupted ("The user doesn't want to proceed with this tool use", "[Operation Cancelled] Reason: User
 * denied execution."). The stuck twins still fire: the same silent search failing again and again, and
 * different calls failing with the same real error. Both engines, one- and two-phase.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { failedSilently, isDeclined, needsPerson } from '../src/text/failure-kinds.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const shell = (cmd: string, outcome: Pick<ToolEvent, 'result' | 'error'>): ToolEvent => ({ tool: 'shell', args: { command: ['bash', '-lc', cmd] }, ...outcome });
const read = (i: number): ToolEvent => ({ tool: 'Read', args: { file_path: `src/part${i}.ts` }, result: `export const part${i} = ${i};` });

/** Different searches finding nothing (exit 1, no output, as the Codex reader gives it), reads between. */
const emptySearches: ToolEvent[] = [
  'rg "goose" specs/001-build-a-web/plan.md',
  'rg "pgcrypto" -n specs/001-build-a-web/data-model.md',
  "rg --files -g 'Dockerfile*'",
  'which google-chrome',
  'rg -n "2FA" -g"*.ts" -g"*.go"',
  'grep -n "finalize" internal/http/api/course_handler.go',
].flatMap((c, i) => [shell(c, { result: '', error: true }), read(i)]);
const DECLINE = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
/** A plan proposed, declined, revised, declined again (and other calls the person declined). */
const declined: ToolEvent[] = [
  { tool: 'exit_plan_mode', args: { plan: '# Plan\n1. Add the import button' }, error: DECLINE },
  read(1),
  { tool: 'exit_plan_mode', args: { plan: '# Revised plan\n1. Add the import button\n2. Parse the HTML' }, error: DECLINE },
  { tool: 'Bash', args: { command: 'pacman -Qs teams' }, error: 'Permission for this tool use was denied. The tool use was rejected.' },
  { tool: 'write_file', args: { file_path: 'notes.md', content: 'v2' }, error: '[Operation Cancelled] Reason: User denied execution.' },
  read(2),
  { tool: 'exit_plan_mode', args: { plan: '# Final plan\n1. Add the import button\n2. Parse the HTML\n3. Test' }, error: DECLINE },
];
/** The same search, finding nothing, again and again. */
const sameSearch: ToolEvent[] = Array.from({ length: 6 }, () => shell("rg -n 'finalize' internal/http", { result: '', error: true }));
/** Different commands hitting the same real error. */
const sameWall: ToolEvent[] = ['make', 'make all', 'make build', 'make -j4', 'make install'].map((c) => shell(c, { error: 'make: *** No rule to make target `config.mk`. Stop.' }));

describe('what a failure says about who stopped it', () => {
  it('should tell declines, failures for want of a person and silent failures', () => {
    expect(isDeclined(DECLINE)).toBe(true);
    expect(isDeclined('[Operation Cancelled] Reason: Operation cancelled')).toBe(true);
    expect(isDeclined('[Request interrupted by user for tool use]')).toBe(true);
    expect(isDeclined('Error: the operation was cancelled after 30s')).toBe(false);
    expect(needsPerson('MCP error -32603: Not authorized')).toBe(true);
    expect(needsPerson('401 Unauthorized: login required')).toBe(true);
    expect(needsPerson('cp: /etc/hosts: Permission denied')).toBe(false);
    expect(failedSilently('', '')).toBe(true);
    expect(failedSilently('Exit code 1', undefined)).toBe(true);
    expect(failedSilently('[exit 1] (no output)', '')).toBe(true);
    expect(failedSilently('Exit code 1\nrg: src: No such file or directory', undefined)).toBe(false);
  });
});

describe.each(ENGINES)('failures that are not the agent\'s wall (%s engine)', (engine) => {
  it('should not flag different searches that found nothing, one- or two-phase', () => {
    expect(flaggedActions(emptySearches, engine)).toEqual([]);
    expect(liveActions(emptySearches, engine)).toEqual([]);
  });

  it('should not flag calls the person declined, one- or two-phase', () => {
    expect(flaggedActions(declined, engine)).toEqual([]);
    expect(liveActions(declined, engine)).toEqual([]);
  });

  it('should still break the same search failing again and again', () => {
    expect(flaggedActions(sameSearch, engine)).toContain('break');
    expect(liveActions(sameSearch, engine)).toContain('deny');
  });

  it('should still flag different calls hitting the same real error', () => {
    expect(flaggedActions(sameWall, engine)).toContain('warn');
    expect(liveActions(sameWall, engine)).toContain('warn');
  });
});
