/**
 * A developer fixing a test suite file by file runs `pytest tests/test_a.py`, then `tests/test_b.py`, ...,
 * each failing with an AssertionError of the same form. Masked, the outputs were one error class (paths,
 * numbers and quoted values masked), so a LiveGuard read the suite as a dead end: warned at the third file,
 * denied the fifth and stopped the run (s25's integration walk). The tests a failure names are its place
 * (src/text/test-place.ts): other tests failing are another failure. The walls stay walls: the same test
 * failing again under other flags, every file failing to import one module, a pin tried at each version.
 */
import { describe, expect, it } from 'vitest';
import type { Engine } from '../src/options/options.js';
import { guardDecisions as decisions } from './helpers/guard-decisions.js';
import { collectionErrorEveryFile, pinVersions, sameTestAgain, suiteFileByFile } from './helpers/pytest-output.js';

const ENGINES: readonly Engine[] = ['wasm', 'reference'];

describe.each(ENGINES)('a LiveGuard (%s engine) over failing test runs', (engine) => {
  it('should not stop a suite fixed file by file, each file failing its own test alike', () => {
    const d = decisions(engine, suiteFileByFile());
    expect(d).toEqual(Array.from({ length: 8 }, () => 'allow/allow'));
  });

  it('should still warn about the same test failing the same way under other flags', () => {
    const d = decisions(engine, sameTestAgain());
    expect(d.slice(0, 2)).toEqual(['allow/allow', 'allow/allow']);
    expect(d[2]).toBe('allow/warn:dead_end');
    for (const x of d.slice(3)) expect(x).toMatch(/^warn\/(?:warn|allow):dead_end$/);
  });

  it('should still stop every test file failing to import the same module', () => {
    const d = decisions(engine, collectionErrorEveryFile());
    expect(d.slice(0, 5)).toEqual(['allow/allow', 'allow/allow', 'allow/warn:dead_end', 'warn/allow:dead_end', 'deny:dead_end']);
    expect(d.slice(5)).toEqual(['stop:dead_end', 'stop:dead_end', 'stop:dead_end']);
  });

  it('should still stop a pin tried at version after version, each failing alike', () => {
    const d = decisions(engine, pinVersions());
    expect(d).toEqual(['allow/allow', 'allow/allow', 'allow/warn:dead_end', 'warn/allow:dead_end', 'deny:dead_end', 'stop:dead_end']);
  });
});
