/**
 * What a failed call's error says (src/text/error-reading.ts) is read once per distinct text, found by the
 * key the engine's module gives each call's error (module-reading.ts), then compared: the same bits as
 * reading the text afresh, for texts of every kind the outcome facts tell apart, whatever was read before
 * under the same key; and the outcome facts of failed calls are the same with the module's reading as
 * without it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { outcomeFacts } from '../src/policy/outcome-facts.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { ERR_DECLINED, ERR_INFRA, ERR_INVALID_ARGS, ERR_NEEDS_PERSON, ERR_REJECTED, ERROR_LOOK, errorBits, errorCacheSize, readError } from '../src/text/error-reading.js';
import { isDeclined, needsPerson } from '../src/text/failure-kinds.js';
import { isInfraFailure } from '../src/text/infra-failure.js';
import { refusedArgs } from '../src/text/invalid-args.js';
import { isTurnRejection } from '../src/text/turn-rejection.js';
import { WasmPipeline } from '../src/wasm/wasm-pipeline.js';

const PIECES = [
  'Exit code 1', 'exit status 2', '(no output)', 'error:', 'zsh:1: no matches found: *.md', 'ls: cannot access \'x\': No such file or directory',
  "The user doesn't want to proceed with this tool use.", 'Permission for this tool use was denied', '[Operation Cancelled]', 'not authorized', 'login required',
  'Your last output was not formatted correctly', 'Tool "replace" not found in registry.', 'Invalid params', '1 validation error for Edit', 'Expected string, received number',
  'ECONNRESET', 'rate limit exceeded', '503 Service Unavailable', 'socket hang up', 'Traceback (most recent call last):', 'No such file', '\n', ' ', 'é', '😀',
];
const errorText = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 6 })), { minLength: 1, maxLength: 8 }).map((p) => p.join(' '));

/** The bits as each recogniser gives them. */
function plain(error: string): number {
  return (
    (isInfraFailure(error) ? ERR_INFRA : 0) |
    (isDeclined(error) ? ERR_DECLINED : 0) |
    (needsPerson(error) ? ERR_NEEDS_PERSON : 0) |
    (isTurnRejection(error) ? ERR_REJECTED : 0) |
    (refusedArgs(error) ? ERR_INVALID_ARGS : 0)
  );
}

describe('the reading of an error text, once per distinct text', () => {
  it('should give each recogniser\'s answer, read afresh or from the cache, and a text of its own under a key another text used', () => {
    fc.assert(
      fc.property(errorText, errorText, fc.integer({ min: 0, max: 2 ** 53 - 1 }), (a, b, key) => {
        const want = plain(a);
        return errorBits(a) === want && readError(a, key, isInfraFailure(a)) === want && readError(a, key, isInfraFailure(a)) === want && readError(b, key, isInfraFailure(b)) === plain(b);
      }),
      { numRuns: 2_000 },
    );
  });

  it('should read long errors alike by their first ERROR_LOOK characters alone, and tell apart those that differ there', () => {
    const tail = 'x'.repeat(ERROR_LOOK);
    for (const [k, start] of ['Exit code 1', 'The user doesn\'t want to proceed with this tool use.', 'ECONNRESET', 'Invalid params'].entries()) {
      const a = `${start.padEnd(ERROR_LOOK - 1, ' ')}!${tail}`;
      const b = `${start.padEnd(ERROR_LOOK - 1, ' ')}!${tail}tail of its own`;
      const c = `${start.padEnd(ERROR_LOOK - 1, ' ')}?${tail}`;
      const key = 999_000 + k;
      expect(readError(a, key, isInfraFailure(a))).toBe(plain(a));
      expect(readError(b, key, isInfraFailure(b))).toBe(plain(b));
      expect(readError(c, key, isInfraFailure(c))).toBe(plain(c));
      expect(readError(start, key, isInfraFailure(start))).toBe(plain(start));
    }
  });

  it('should keep one entry per distinct text, and stay within its bounds', () => {
    const before = errorCacheSize().entries;
    for (let i = 0; i < 5; i++) readError('Exit code 1 (distinct text of this test)', 12345, false);
    expect(errorCacheSize().entries).toBeLessThanOrEqual(before + 1);
    for (let i = 0; i < 3000; i++) readError(`error ${i} ${'x'.repeat(300)}`, i + 7, false);
    expect(errorCacheSize().entries).toBeLessThanOrEqual(1024);
    expect(errorCacheSize().chars).toBeLessThanOrEqual(1 << 19);
  });

  it('should be given the same key by the module for the same text, and another for another text', () => {
    const p = new WasmPipeline(resolveOptions({}));
    const keyOf = (error: string): number => {
      p.observe({ tool: 'Bash', args: { command: 'make' }, error });
      expect(p.reading?.index).toBe(p.lastIndex);
      return p.reading.errorKey;
    };
    expect(keyOf('Exit code 1')).toBe(keyOf('Exit code 1'));
    expect(keyOf('Exit code 1')).not.toBe(keyOf('Exit code 2'));
    expect(p.reading.infra).toBe(false);
    keyOf('ECONNRESET');
    expect(p.reading.infra).toBe(true);
    p.dispose();
  });

  it('should not ask whether an error says only that it failed of a failure with a long result (its expression is slow on long runs of spaces)', () => {
    const p = new WasmPipeline(resolveOptions({}));
    const spaces = `Process exited with code 100\n${'\r'.padEnd(80, ' ')}\rHit:13 http://ports.ubuntu.com`.repeat(8);
    const e = { tool: 'exec_command', args: { cmd: 'apt-get update' }, error: spaces, result: `${spaces}${'x'.repeat(600)}` };
    const t0 = performance.now();
    p.observe(e);
    outcomeFacts(e, p.log, p.lastIndex, { bits: 0, target: 0 }, true, p.reading);
    // seconds when the expression runs (exponential in the run's length); milliseconds when it is not asked
    expect(performance.now() - t0).toBeLessThan(2_000);
    p.dispose();
  });

  it('should give failed calls the same outcome facts with the module\'s reading as without it', () => {
    const p = new WasmPipeline(resolveOptions({}));
    fc.assert(
      fc.property(errorText, fc.constantFrom(undefined, null, '', 'Exit code 1', 'some output'), (error, result) => {
        const e = { tool: 'Bash', args: { command: 'rg foo' }, error, ...(result === undefined ? {} : { result }) };
        p.observe(e);
        const given = outcomeFacts(e, p.log, p.lastIndex, { bits: 0, target: 0 }, true, p.reading);
        const own = outcomeFacts(e, p.log, p.lastIndex, { bits: 0, target: 0 }, true);
        return given.bits === own.bits && given.target === own.target;
      }),
      { numRuns: 500 },
    );
    p.dispose();
  });
});
