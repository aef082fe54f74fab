/**
 * LiveState keeps the kind of the latest recorded verdict (for src/live/dead-end-wall.ts) in the session's
 * snapshot, among the blocked calls under a key no call's signature can be, within their count limit:
 * with the blocked calls full, the oldest one gives way, and the snapshot still reads back.
 */
import { describe, expect, it } from 'vitest';
import { LiveState, MAX_BLOCKED } from '../src/live/live-state.js';
import { ByteReader } from '../src/snapshot/byte-reader.js';
import { ByteWriter } from '../src/snapshot/byte-writer.js';

const sig = (i: number): string => i.toString(16).padStart(16, '0');

/** `s` saved and read back into a new LiveState (snapshot format 8). */
function roundTrip(s: LiveState): LiveState {
  const w = new ByteWriter();
  s.save(w);
  const out = new LiveState();
  out.load(new ByteReader(w.finish()), 8);
  return out;
}

describe('LiveState: the latest recorded verdict in a snapshot', () => {
  it('should read back the latest verdict kind, and no blocked call for it', () => {
    const s = new LiveState();
    s.recordedVerdict(sig(1), false, 'dead_end');
    const back = roundTrip(s);
    expect(back.latestVerdictKind).toBe('dead_end');
    expect(back.hasBlocked()).toBe(false);
    expect(back.blockedAs('latest verdict')).toBeUndefined();
  });

  it('should fit it among blocked calls that are full, the oldest giving way', () => {
    const s = new LiveState();
    for (let i = 0; i < MAX_BLOCKED; i++) s.block(sig(i), 'exact_repeat');
    s.recordedVerdict(sig(999), false, 'state_repeat');
    const back = roundTrip(s);
    expect(back.latestVerdictKind).toBe('state_repeat');
    expect(back.blockedAs(sig(0))).toBeUndefined();
    expect(back.blockedAs(sig(MAX_BLOCKED - 1))).toEqual({ times: 1, kind: 'exact_repeat' });
  });

  it('should forget it after `cooldown` quiet records and at a fresh start', () => {
    const s = new LiveState();
    s.recordedVerdict(sig(1), true, 'dead_end');
    for (let i = 0; i < 9; i++) s.recorded(true, 10);
    expect(s.latestVerdictKind).toBe('dead_end');
    s.recorded(true, 10);
    expect(s.latestVerdictKind).toBeNull();
    s.recordedVerdict(sig(2), false, 'dead_end');
    s.freshStart(5);
    expect(s.latestVerdictKind).toBeNull();
    expect(roundTrip(s).latestVerdictKind).toBeNull();
  });
});
