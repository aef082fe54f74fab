/**
 * A suite fixed one failing test after another under the runners besides pytest (vitest, jest, go test,
 * cargo test, rspec, mocha, phpunit): each run failing another test with an assertion of the same form is ordinary work,
 * where the masked outputs alone read as one dead end. The tests each run names as failed are the failure's place
 * (src/text/test-place.ts). The walls stay walls: the same test failing again under other flags, and every
 * file failing before any test on one module that does not load or compile (test/helpers/runner-output.ts).
 * Since quiet38 the same test moved by an edit (rspec's line number) or run with `-q` (cargo's terse output)
 * is still the same test, and a test of the same name in another file (jest's ids name no file) another.
 * Since quiet39 jest's tests outside a describe and phpunit's `--testdox` output are read too
 * (test/helpers/runner-variants.ts), and go's test of one name in two packages is two tests.
 */
import { describe, expect, it } from 'vitest';
import type { Engine } from '../src/options/options.js';
import { guardDecisions as decisions } from './helpers/guard-decisions.js';
import { RUNNERS, RUNNERS_NAMING_FILES, runnerSameNameEachFile, runnerSameTestAgain, runnerSuiteOneByOne } from './helpers/runner-output.js';
import { RUNNER_VARIANTS, runnerWall } from './helpers/runner-variants.js';

const ENGINES: readonly Engine[] = ['wasm', 'reference'];
const CASES = ENGINES.flatMap((engine) => [...RUNNERS, ...RUNNER_VARIANTS].map((runner) => ({ engine, runner, name: `${runner.name}, ${engine} engine` })));

describe.each(CASES)('a LiveGuard over failing $name runs', ({ engine, runner }) => {
  it('should not warn on a suite fixed one failing test after another, each failing alike', () => {
    expect(decisions(engine, runnerSuiteOneByOne(runner))).toEqual(Array.from({ length: 8 }, () => 'allow/allow'));
  });

  it('should still warn about the same test failing the same way under other flags', () => {
    const d = decisions(engine, runnerSameTestAgain(runner));
    expect(d.slice(0, 3)).toEqual(['allow/allow', 'allow/allow', 'allow/warn:dead_end']);
    for (const x of d.slice(3)) expect(x).toMatch(/^(?:warn\/(?:warn|allow)|deny|stop):dead_end$/);
  });

  it('should still stop every file (testdox: every test) failing before any test on the same missing module', () => {
    const d = decisions(engine, runnerWall(runner));
    expect(d.slice(0, 5)).toEqual(['allow/allow', 'allow/allow', 'allow/warn:dead_end', 'warn/allow:dead_end', 'deny:dead_end']);
    expect(d.slice(5)).toEqual(['stop:dead_end', 'stop:dead_end', 'stop:dead_end']);
  });
});

const NAMING_FILES = ENGINES.flatMap((engine) => [...RUNNERS_NAMING_FILES, ...RUNNER_VARIANTS].map((runner) => ({ engine, runner, name: `${runner.name}, ${engine} engine` })));

describe.each(NAMING_FILES)('a LiveGuard over $name runs of every file failing a test of one name', ({ engine, runner }) => {
  it('should not warn: each file fails its own test', () => {
    expect(decisions(engine, runnerSameNameEachFile(runner))).toEqual(Array.from({ length: 8 }, () => 'allow/allow'));
  });
});
