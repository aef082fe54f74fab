/**
 * The outcome facts' readings of a shell command are functions of named inputs (perf41): whether a call changes
 * the workspace is its tool's answer (toolChanges) or else its command text's (shellCommandWrites); the program's
 * key and whether it waits first are its command text's alone (commandProgramKey, commandWaitsFirst). On random
 * commands given in any shape of args (`command` or `cmd`, a string or its words, other members beside it) to a
 * tool of no table, each answer is the text's; an edit, editor or MCP tool answers by its tool.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { waitsFirst } from '../src/policy/outcome-facts.js';
import { changesWorkspace, commandText, shellCommandWrites, toolChanges } from '../src/policy/workspace-changes.js';
import { commandProgramKey, programKey } from '../src/text/command-program.js';
import { commandWaitsFirst } from '../src/text/waits-first.js';

const WORDS = ['git', 'status', 'sleep', '30', '&&', 'gh', 'run', 'list', 'sed', '-i', 's/a/b/', 'x.ts', '>', 'out.txt', 'npm', 'test', 'bash', '-lc', 'ls', 'rm', '-rf', 'build', 'cd', '/repo', ';', 'timeout', '60', 'kubectl', 'wait'];

/** A command's words: from the list, or random text. */
const words = fc.array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...WORDS) }, { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 8 }) }), { minLength: 1, maxLength: 8 });

/** The command's words as args: a string or the words, under `command` or `cmd`, with or without other members. */
const shaped = (w: string[]) =>
  fc.record({ key: fc.constantFrom('command', 'cmd'), asArray: fc.boolean(), extra: fc.boolean() }).map(({ key, asArray, extra }) => ({
    [key]: asArray ? w : w.join(' '),
    ...(extra ? { description: 'run it', timeout: 120000 } : {}),
  }));

describe("a shell command's readings, functions of its text", () => {
  it('should answer by the command text alone, whatever the args around it, for a tool of no table', () => {
    fc.assert(
      fc.property(
        words.chain((w) => fc.tuple(fc.constant(w.join(' ')), shaped(w))),
        fc.constantFrom('Bash', 'shell', 'exec_command', 'run_shell_command'),
        ([text, args], tool) => {
          expect(commandText(args)).toBe(text);
          expect(toolChanges(tool, args)).toBeUndefined();
          expect(changesWorkspace(tool, args)).toBe(shellCommandWrites(text));
          expect(programKey(args)).toBe(commandProgramKey(text));
          expect(waitsFirst(args)).toBe(commandWaitsFirst(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("should answer by the tool for an edit, editor or MCP tool, whatever its command", () => {
    expect(toolChanges('Edit', { command: 'ls' })).toBe(true);
    expect(toolChanges('mcp__gh__create_issue', { command: 'ls' })).toBe(true);
    expect(toolChanges('str_replace_editor', { command: 'view', path: 'a' })).toBe(false);
    expect(toolChanges('str_replace_editor', { command: 'create', path: 'a' })).toBe(true);
    expect(changesWorkspace('str_replace_editor', { command: 'view', path: 'a' })).toBe(false);
    expect(changesWorkspace('Edit', { command: 'ls' })).toBe(true);
  });
});
