/**
 * The keys of the names a call's facts keep (name-keys.ts: a changed file's path, a failed command's
 * program) are hashString's, remembered by name: the same key for a name met before, after the memo
 * started again empty, for a name too long to be kept, and for a name that is a view of a longer text; the
 * memo never holds more than NAME_KEYS names. And the facts of real calls are unchanged: each change's
 * target and each failure's program key read through the memo equal hashString's of the name.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashString } from '../src/fingerprint/canonical-hash.js';
import { NAME_KEYS, NAME_KEY_LOOK, nameKey, nameKeyCount } from '../src/policy/name-keys.js';
import { changeTarget, changesWorkspace, commandText } from '../src/policy/workspace-changes.js';
import { commandProgram, programKey } from '../src/text/command-program.js';
import { traceCalls, traceDir } from './helpers/traces.js';

/** The key as it was computed before the memo. */
const plain = (name: string): number => hashString(name) >>> 0 || 1;

describe('name keys', () => {
  it('should give hashString of the name, met before or not', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 300 }), { maxLength: 12 }), (names) => {
        for (const n of [...names, ...names]) expect(nameKey(n)).toBe(plain(n));
      }),
      { numRuns: 60 },
    );
  });

  it('should give the same key for a long name, a view of a longer text and an empty one', () => {
    const long = 'src/'.repeat(NAME_KEY_LOOK);
    expect(nameKey(long)).toBe(plain(long));
    const patch = `*** Update File: ${'a/'.repeat(40)}x.ts\n${'+line\n'.repeat(10_000)}`;
    const view = patch.slice(17, patch.indexOf('\n'));
    expect(nameKey(view)).toBe(plain(view));
    expect(nameKey(view.slice(0))).toBe(plain(view));
    expect(nameKey('')).toBe(plain(''));
  });

  it('should keep at most NAME_KEYS names, and give the same keys after it starts again', () => {
    for (let i = 0; i < NAME_KEYS + 10; i++) nameKey(`file-${i}.ts`);
    expect(nameKeyCount()).toBeLessThanOrEqual(NAME_KEYS);
    for (let i = 0; i < 50; i++) expect(nameKey(`file-${i}.ts`)).toBe(plain(`file-${i}.ts`));
  });

  it.skipIf(traceDir === null)('should leave every change target and program key of the traces as hashString gives it', () => {
    let targets = 0;
    let programs = 0;
    for (const [, c] of traceCalls()) {
      if (changesWorkspace(c.tool, c.args)) {
        const target = changeTarget(c.tool, c.args);
        if (target !== undefined) {
          targets++;
          expect(nameKey(target)).toBe(plain(target));
        }
      }
      const command = commandText(c.args);
      const program = command === undefined ? undefined : commandProgram(command);
      if (program !== undefined) programs++;
      expect(programKey(c.args)).toBe(program === undefined ? 0 : plain(program));
    }
    expect(targets).toBeGreaterThan(1000);
    expect(programs).toBeGreaterThan(1000);
  });
});
