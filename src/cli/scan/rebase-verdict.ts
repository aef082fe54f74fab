/**
 * A verdict numbered in the scan's terms. The checker numbers a session's calls from 0 each time it starts
 * the session; the scan numbers them from the session's first call. When a session was ended early (to stay
 * within the live-session cap) and came back, its checker run began at call `base`: the verdict's call
 * index, loop start, unit and the "since call #N" of its message are moved on by `base`, so they agree
 * with the call's index (they used to restart from 0 while the index went on).
 */
import type { Verdict } from '../../types.js';
import { callName } from '../../text/call-number.js';

/** `v` with its call numbers moved on by `base` (`v` itself when `base` is 0). */
export function rebaseVerdict(v: Verdict, base: number): Verdict {
  if (base === 0) return v;
  const loopStart = v.loopStart + base;
  return Object.freeze({
    ...v,
    loopStart,
    index: v.index + base,
    unit: Object.freeze(v.unit.map((u) => Object.freeze({ ...u, index: u.index + base }))),
    message: v.message.replace(`since ${callName(v.loopStart)})`, `since ${callName(loopStart)})`),
  });
}
