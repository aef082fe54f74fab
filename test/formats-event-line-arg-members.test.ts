/**
 * The args members the outcome facts read, noted by the module as it reads an events-format line
 * (assembly/event-line.ts's AF_ entries, src/fingerprint/json-args-text.ts), against what JSON.parse makes of the
 * args' text: every member of ARG_MEMBERS reads as the parsed args' own (escapes, surrogates, a name given
 * twice, values of other kinds, names nested deeper, keys spelled with escapes), and every reading of args
 * the outcome facts make (the command, whether it writes, the file it changes, the program, waiting first)
 * gives the same answer from the bytes as from the parsed args. Then an engine reading lines from their
 * bytes gives the verdicts an engine given the parsed events gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoopEngine } from '../src/engine/loop-engine.js';
import { readEventLine } from '../src/formats/event-line.js';
import { waitsFirst } from '../src/policy/outcome-facts.js';
import { changeTarget, changesWorkspace, commandText } from '../src/policy/workspace-changes.js';
import { programKey } from '../src/text/command-program.js';
import { ARG_MEMBERS, JsonArgsText } from '../src/fingerprint/json-args-text.js';
import type { SessionEvent } from '../src/wire/session-event.js';
import { runs } from './helpers/streams.js';

/** A JSON string literal of `s` with every character outside ASCII escaped (the lines the module reads). */
function literal(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `s` as a key literal, its first letter sometimes spelled as a `\u` escape (JSON.parse reads the same name). */
function keyLiteral(s: string, escapeFirst: boolean): string {
  if (!escapeFirst || s.length === 0) return literal(s);
  return `"\\u${s.charCodeAt(0).toString(16).padStart(4, '0')}${literal(s.slice(1)).slice(1)}`;
}

const chars = fc.constantFrom('a', 'Z', ' ', '/', '.', '-', '_', '\n', '\t', '"', '\\', '\u0001', 'é', '😀', '\ud800', '\udc00', '>', '&', ';', 's', 'l', 'e', 'p', '3');
const text = fc.string({ unit: chars, maxLength: 30 });
/** Commands the readings tell apart: writes, waits, wrapped programs, patches. */
const command = fc.oneof(
  text,
  fc.constantFrom('ls -la', 'sed -i s/a/b/ x.py', 'echo hi > out.txt', 'sleep 30 && gh run list', 'bash -lc "cd /repo && git status"', 'npx tsc --noEmit', 'timeout 30 kubectl wait', '*** Begin Patch\n*** Update File: src/a.py\n@@', 'create', 'str_replace', 'view'),
);
const scalar = fc.oneof(command, fc.constant(null), fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, scalar, fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(fc.constantFrom(...ARG_MEMBERS, 'x'), tie('v'), { maxKeys: 3 })),
})).v;
const key = fc.oneof(fc.constantFrom(...ARG_MEMBERS), fc.constantFrom(...ARG_MEMBERS), fc.constantFrom('Command', 'commands', 'cm', 'file_pat', 'pathx', ''), text);
const ws = fc.constantFrom('', ' ', '\n  ', '\t');

/** Args as JSON text written by hand: members in order, names possibly repeated or escaped, white space anywhere. */
const argsText = fc
  .array(fc.record({ key, escapeKey: fc.boolean(), value: fc.oneof(command, value), w1: ws, w2: ws }), { maxLength: 6 })
  .map((members) => `{${members.map((m) => `${m.w1}${keyLiteral(m.key, m.escapeKey)}${m.w2}:${m.w1}${JSON.stringify(m.value, null, m.w2 === '' ? undefined : 1).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}`).join(',')}${members.length === 0 ? '' : ' '}}`);
const tool = fc.constantFrom('bash', 'exec_command', 'str_replace_editor', 'Edit', 'apply_patch', 'read_file');

/** The args JsonArgsText a line holding `args` gives. */
function argsOfLine(args: string, t: string): JsonArgsText {
  const call = readEventLine(Buffer.from(`{"session":"s","tool":${JSON.stringify(t)},"args":${args},"result":"ok"}`));
  expect(call).not.toBeNull();
  const a = call?.event.args;
  expect(JsonArgsText.is(a)).toBe(true);
  return a as JsonArgsText;
}

describe('args members read from a line', () => {
  it('read as the parsed args own them, and every reading of args agrees', () => {
    fc.assert(
      fc.property(argsText, tool, (t, toolName) => {
        const fast = argsOfLine(t, toolName);
        const parsed = JSON.parse(t) as Record<string, unknown>;
        for (const m of ARG_MEMBERS) expect(fast.member(m)).toEqual(Object.hasOwn(parsed, m) ? parsed[m] : undefined);
        expect(commandText(fast)).toEqual(commandText(parsed));
        expect(changesWorkspace(toolName, fast)).toBe(changesWorkspace(toolName, parsed));
        expect(changeTarget(toolName, fast)).toEqual(changeTarget(toolName, parsed));
        expect(programKey(fast)).toBe(programKey(parsed));
        expect(waitsFirst(fast)).toBe(waitsFirst(parsed));
        expect(fast.value()).toEqual(parsed);
      }),
      { numRuns: runs(600) },
    );
  });

  it('notes spans for strings and null only; a key with an escape or a member of another kind reads the parsed args', () => {
    expect(argsOfLine('{"command":"ls","cmd":null,"path":"/a"}', 'bash').membersNoted).toBe(true);
    expect(argsOfLine('{"x":{"command":1},"command":"ls"}', 'bash').membersNoted).toBe(true);
    const escapedKey = argsOfLine('{"comm\\u0061nd":"rm -rf x","command":"ls"}', 'bash');
    expect(escapedKey.membersNoted).toBe(false);
    expect(escapedKey.member('command')).toBe('ls');
    const array = argsOfLine('{"command":"ls","cmd":["bash","-lc","touch x"]}', 'bash');
    expect(array.membersNoted).toBe(false);
    expect(commandText(array)).toBe('ls');
    const twice = argsOfLine('{"command":"touch a","command":"ls","command":"cat \\"b\\" \\ud83d\\ude00"}', 'bash');
    expect(twice.membersNoted).toBe(true);
    expect(twice.member('command')).toBe('cat "b" 😀');
  });

  it('an engine reading lines from their bytes gives the verdicts of one given the parsed events', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ args: argsText, tool, failed: fc.boolean(), session: fc.constantFrom('a', 'b') }), { minLength: 1, maxLength: 30 }), (calls) => {
        const lines = calls.map((c) => Buffer.from(`{"session":"${c.session}","tool":"${c.tool}","args":${c.args},${c.failed ? '"error":"fatal: not a git repository"' : '"result":"done"'}}`));
        const events = lines.map((l) => JSON.parse(l.toString('latin1')) as SessionEvent);
        const fromLines = new LoopEngine();
        const fromEvents = new LoopEngine();
        try {
          const got = fromLines.checkLines(lines);
          const want = fromEvents.checkBatch(events);
          expect(JSON.stringify(got)).toBe(JSON.stringify(want));
        } finally {
          fromLines.close();
          fromEvents.close();
        }
      }),
      { numRuns: runs(60) },
    );
  });
});
