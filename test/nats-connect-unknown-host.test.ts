/**
 * newuser31: a NATS address whose host name DNS does not know (`getaddrinfo ENOTFOUND`) is said at once, not
 * tried again for the whole connect wait (`--nats-connect-wait`, 60 s by default, with a retry line every
 * few seconds that only repeated the DNS error). Only what can heal is tried again: a name that resolves, or
 * an address, among the servers keeps the retries (the client names one failing host only, of servers it
 * tries in a random order). No nats-server is needed: `.invalid` never resolves (RFC 6761) and port 1
 * refuses at once.
 */
import { describe, expect, it } from 'vitest';
import { connectNats } from '../src/serve/nats/nats-connect.js';
import { hostOf } from '../src/serve/nats/unresolved-hosts.js';
import { NatsUnreachableError } from '../src/nats.js';

/** How `connectNats(servers)` with a wait of `waitMs` ended: its error, the retries it announced, and the time taken. */
async function attempt(servers: string[], waitMs: number): Promise<{ error: unknown; retries: string[]; ms: number }> {
  const retries: string[] = [];
  const t0 = performance.now();
  const error = await connectNats(servers, {}, { name: 'test', waitMs, onRetry: (_n, _d, problem) => void retries.push(problem) }).then(
    (nc) => nc.close(),
    (e: unknown) => e,
  );
  return { error, retries, ms: performance.now() - t0 };
}

describe('a NATS address whose host name does not resolve', () => {
  it('should be refused at once, saying the name does not resolve, with no retry', async () => {
    const { error, retries, ms } = await attempt(['nats://deploy:S3cretPw42@no-such-host.invalid:4222'], 8_000);
    expect(error).toBeInstanceOf(NatsUnreachableError);
    expect((error as Error).message).toContain('the host name "no-such-host.invalid" does not resolve (no such host name: DNS does not know it); not tried again');
    expect((error as Error).message).not.toContain('S3cretPw42');
    expect(retries).toEqual([]);
    expect(ms).toBeLessThan(4_000);
  }, 20_000);

  it('should still be tried again beside an address that may come up', async () => {
    const { error, retries } = await attempt(['nats://no-such-host.invalid:4222', 'nats://127.0.0.1:1'], 700);
    expect(error).toBeInstanceOf(NatsUnreachableError);
    expect(retries.length).toBeGreaterThan(0);
    expect((error as Error).message).toMatch(/after \d+ attempts/);
  }, 20_000);
});

describe('hostOf', () => {
  it("should read a server URL's host as the client is given it", () => {
    expect(hostOf('nats://user:pw@nats.internal:4222')).toBe('nats.internal');
    expect(hostOf('tls://[::1]:4222')).toBe('::1');
    expect(hostOf('127.0.0.1:4222')).toBe('127.0.0.1');
    expect(hostOf('demo.nats.io')).toBe('demo.nats.io');
  });
});
