/**
 * A lease watch started again (after it ended or went deaf) replays every key's last value. Before, each
 * replayed key was taken as updated at that moment, so a dead worker's heartbeat and leases looked fresh for
 * one more lease and taking its partitions over waited that long again. A key replayed at the revision
 * already seen keeps the time it was first seen; a new revision is seen now.
 */
import { describe, expect, it } from 'vitest';
import { seenUpdate } from '../src/serve/nats/partition-leases.js';

describe('seenUpdate: what a lease watch knows of a key', () => {
  it('should keep the time a key was first seen when a new watch replays it at the same revision', () => {
    const first = seenUpdate(undefined, 7, 'w1', false, 1_000);
    expect(first).toEqual({ revision: 7, value: 'w1', deleted: false, at: 1_000 });
    expect(seenUpdate(first, 7, 'w1', false, 5_000).at).toBe(1_000);
  });

  it('should take a new revision as seen now', () => {
    const first = seenUpdate(undefined, 7, 'w1', false, 1_000);
    expect(seenUpdate(first, 8, 'w1', false, 5_000)).toEqual({ revision: 8, value: 'w1', deleted: false, at: 5_000 });
    expect(seenUpdate(first, 9, '', true, 6_000)).toEqual({ revision: 9, value: '', deleted: true, at: 6_000 });
  });
});
