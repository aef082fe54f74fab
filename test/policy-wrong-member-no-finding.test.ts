/**
 * A compiler naming a member a type does not have reports a wrong name in the agent's code, not a search that
 * found nothing. Solidity's `Member "decrypt" not found or not visible after argument-dependent lookup in
 * type(library FHE)` holds the words "not found", and the dead end's class of failures that say nothing was
 * found (dead-end.ts, matchClass) joined it to every other "not found" and "No such file" near it, as it did
 * TypeScript's "does not exist on type" before not-a-finding.ts passed that over. The same wrong member coming
 * back is still a dead end (its error's class), and a "not found" that is no member's still says nothing was
 * found. Both engines, and the module's reading against its TypeScript twin.
 */
// vitest: isolate (the module's scratch area, through ./helpers/nothing-found-readings)
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { nothingFoundReadings as readings } from './helpers/nothing-found-readings.js';
import { ENGINES, deadEndsAt, liveActions } from './helpers/verdicts.js';


const MEMBER = (name: string, where: string): string =>
  `Error HH600: Compilation failed\nTypeError: Member "${name}" not found or not visible after argument-dependent lookup in ${where}.\n  --> contracts/Vault.sol:88:25:`;

describe('a compiler naming a member that is not there', () => {
  it('should not read a member not found as nothing found', () => {
    expect(readings(MEMBER('decrypt', 'type(library FHE)'))).toEqual([false, false]);
    expect(readings('TypeError: Member "_update" not found or not visible after argument-dependent lookup in type(contract super Token).')).toEqual([false, false]);
    expect(readings('member   balances.total   NOT FOUND')).toEqual([false, false]);
  });

  it('should still read a not found that names no member as nothing found', () => {
    expect(readings('Member not found')).toEqual([true, true]);
    expect(readings('member: not found')).toEqual([true, true]);
    expect(readings('members "x" not found')).toEqual([true, true]);
    expect(readings('remember x not found')).toEqual([true, true]);
    expect(readings(`${MEMBER('decrypt', 'type(library FHE)')}\nError HH404: File contracts/Lib.sol not found`)).toEqual([true, true]);
  });
});

const fail = (command: string, out: string): ToolEvent => ({ tool: 'Bash', args: { command }, result: out, error: out });
const ok = (command: string, out: string): ToolEvent => ({ tool: 'Bash', args: { command }, result: out });

/**
 * A contract's build: a listing and a `cd` of a folder that is not there, the contracts listed, the build
 * failing on a member the library does not have, the library's functions looked up, the build failing on
 * another member. Four failures in seven calls, all of them saying "not found" or "No such file", two a wrong
 * member.
 */
const builtAndFixed: ToolEvent[] = [
  ok('cat hardhat.config.ts', 'export default { solidity: "0.8.24" }'),
  fail('ls contracts/deploy/', "ls: cannot access 'contracts/deploy/': No such file or directory"),
  fail('cd contracts/deploy && ls', '/bin/bash: line 1: cd: contracts/deploy: No such file or directory'),
  ok('ls contracts', 'Vault.sol\nLib.sol'),
  fail('npx hardhat compile', MEMBER('decrypt', 'type(library FHE)')),
  ok('grep -n "function " node_modules/fhevm/lib/FHE.sol | head -50', 'function add(euint64 a, euint64 b)'),
  fail('npx hardhat compile --force', MEMBER('asEuint64', 'type(library FHE)')),
];

/** The same wrong member, compiled again and again with nothing changed. */
const sameMemberAgain: ToolEvent[] = ['compile', 'compile --force', 'test', 'compile --quiet'].map((task) =>
  fail(`npx hardhat ${task}`, MEMBER('decrypt', 'type(library FHE)')),
);

describe.each(ENGINES)('failures joined by what they say (%s engine)', (engine) => {
  it('should see no dead end in two wrong members beside a listing and a cd of a folder not there', () => {
    expect(deadEndsAt(builtAndFixed, engine)).toEqual([]);
    expect(liveActions(builtAndFixed, engine)).toEqual([]);
  });

  it('should still see a dead end when the same member is missing again and again', () => {
    expect(deadEndsAt(sameMemberAgain, engine).length).toBeGreaterThan(0);
  });
});
