/**
 * newuser31: a NATS address whose host name DNS does not know (`getaddrinfo ENOTFOUND`) is said in those words
 * from the first retry line and in the last error (it was `getaddrinfo ENOTFOUND` on every line); it is still
 * tried for the whole connect wait, since a container network's DNS knows a server's name only once its
 * container runs (Docker Compose). A name that resolves, or an address, among the servers keeps the usual words (the client names one failing host only, of servers it
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
  it('should say at the first retry that the name does not resolve, keep trying for the wait, and end saying so', async () => {
    const { error, retries } = await attempt(['nats://deploy:S3cretPw42@no-such-host.invalid:4222'], 700);
    const said = 'the host name "no-such-host.invalid" does not resolve (no such host name: DNS does not know it; check the address, or start the server\'s container first)';
    expect(error).toBeInstanceOf(NatsUnreachableError);
    expect(retries.length).toBeGreaterThan(0);
    expect(retries[0]).toBe(said);
    expect((error as Error).message).toContain(said);
    expect((error as Error).message).toMatch(/after \d+ attempts/);
    expect((error as Error).message).not.toContain('S3cretPw42');
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
