import { MissingPeerError } from '../errors.js';

/** A command line or config the CLI cannot run with: reported on stderr, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** `e`, or for a MissingPeerError (an optional package not installed) a UsageError saying what to install. */
export function peerAsUsage(e: unknown): unknown {
  return e instanceof MissingPeerError ? new UsageError(e.message.replace(/^loopwatch: /, '')) : e;
}

/** Loads an optional peer dependency with `load`; one not installed is a UsageError saying what to install. */
export function usablePeer(load: () => unknown): void {
  try {
    load();
  } catch (e) {
    throw peerAsUsage(e);
  }
}
