/**
 * A read tool's args that cannot be read at all (a revoked Proxy throws even at Array.isArray): the read's
 * target is unknown (readTarget's contract), never a raw TypeError out of `check` (found by
 * faults/hostile-values' property test in CI: seed 1044316406, `read_file` with a revoked Proxy as args).
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import { readTarget } from '../src/policy/read-target.js';

/** A Proxy revoked before use: every operation on it throws a TypeError. */
function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

describe('a read whose args are a revoked Proxy', () => {
  it('should have no target', () => {
    expect(readTarget(revoked())).toBeUndefined();
  });

  for (const engine of ['wasm', 'reference'] as const) {
    it(`should be answered by check in the ${engine} engine, as a read's file content`, () => {
      const d = new LoopDetector({ engine, sessionId: 's' });
      for (const tool of ['read_file', 'Read']) {
        expect(() => d.check({ tool, args: revoked(), result: '' })).not.toThrow();
        expect(() => d.check({ tool, args: revoked(), result: '1\tline one\n2\tline two' })).not.toThrow();
      }
    });
  }
});
