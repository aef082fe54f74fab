/**
 * Which NATS servers' host names DNS says do not exist: a first connection that failed with `ENOTFOUND` is
 * said as that (a typo, or a name only another network knows, or a container's name its network's DNS knows
 * only once it runs), not as the client's `getaddrinfo ENOTFOUND`. The client's message names one host only,
 * of servers it tries in a random order, so each host is looked up here after such a failure.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** The host of a server URL as the client is given it (`nats://user@host:4222`, `host:4222`, `[::1]:4222`), brackets taken off. */
export function hostOf(url: string): string | undefined {
  return /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^@/]*@)?(\[[^\]]*\]|[^:/]+)/i.exec(url)?.[1]?.replace(/^\[|\]$/g, '');
}

/**
 * The host names of `urls` that do not resolve (the system's resolver says `ENOTFOUND`: no such name), each
 * once, in order; an address (`127.0.0.1`, `::1`) never is one, nor a name whose lookup failed otherwise
 * (`EAI_AGAIN`: DNS did not answer, which can heal).
 */
export async function unresolvedHosts(urls: readonly string[]): Promise<string[]> {
  const names = [...new Set(urls.map(hostOf))].filter((h): h is string => h !== undefined && h !== '' && isIP(h) === 0);
  const found = await Promise.all(
    names.map((h) =>
      lookup(h).then(
        () => false,
        (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOTFOUND',
      ),
    ),
  );
  return names.filter((_, i) => found[i]);
}
