/**
 * The policy's view of a recorded run's calls (a {@link PolicyLog}): their signatures, kept as a session's
 * call log keeps them (the newest `capacity` calls of those recorded so far), and no references (a
 * simulated verdict names no calls).
 */
import type { PolicyLog } from '../policy/policy-log.js';
import type { CallRef } from '../types.js';

/** Signatures of one run's recorded calls, as the call log holds them after `count` calls. */
export class SignatureLog implements PolicyLog {
  /** Calls recorded so far (a proposal counts its own call). */
  count = 0;

  constructor(
    private readonly sigs: Uint32Array,
    private readonly capacity: number,
  ) {}

  signatureLow(index: number): number | undefined {
    return index >= 0 && index < this.count && index >= this.count - this.capacity ? this.sigs[index] : undefined;
  }

  ref(_index: number): CallRef | undefined {
    return undefined;
  }
}
