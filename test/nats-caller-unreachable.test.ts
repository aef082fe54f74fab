/**
 * newuser30: `NatsCaller.connect` to an address where no server answers rejects with a NatsUnreachableError
 * that carries a stable code and the loopwatch brand, as every other error does, and is exported by
 * `loopwatch/nats`. Before, it had neither (newuser29: a caller could only match its name). No nats-server
 * is needed: port 1 refuses the connection at once.
 */
import { describe, expect, it } from 'vitest';
import { ErrorCode, isLoopwatchError } from '../src/errors.js';
import { NatsCaller, NatsUnreachableError } from '../src/nats.js';

describe('NatsCaller.connect with no server reachable', () => {
  it('should reject with a NatsUnreachableError carrying its code and brand, the address redacted', async () => {
    const e = await NatsCaller.connect('nats://deploy:S3cretPw42@127.0.0.1:1').then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(NatsUnreachableError);
    expect((e as NatsUnreachableError).code).toBe(ErrorCode.NATS_UNREACHABLE);
    expect(ErrorCode.NATS_UNREACHABLE).toBe('ERR_LOOPWATCH_NATS_UNREACHABLE');
    expect(isLoopwatchError(e)).toBe(true);
    expect((e as Error).message).toContain('no NATS server reachable at nats://');
    expect((e as Error).message).not.toContain('S3cretPw42');
  });
});
