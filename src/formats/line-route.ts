/**
 * The session a pool routes an events-format line by, read from the line's first bytes alone: a line that
 * opens with `{"session":"` (JSON whitespace allowed between the tokens, as Python's `json.dumps` writes)
 * and a plain name (1-256 printable ASCII bytes, no quote or backslash), whose later bytes hold neither
 * `"session"` nor `\u` (so no other member can be named "session", not even spelled with escapes), nor
 * `"trajectory"` (a record with a trajectory is a SWE-agent record to the scan's reader, detect-format.ts),
 * belongs to that session whatever else it holds: the events reader, JSON.parse and the module's line
 * reader all give it that session, or refuse the line (which then touches no session). Such a line goes to
 * its worker unread; the worker reads it, or words why it holds no call. Any other line is read whole in
 * the calling thread, as before (`eventLineSession`).
 *
 * This costs a copy into the module and one sixteen-bytes-at-a-time pass, against a whole JSON check for
 * `eventLineSession`. {@link routeSession} is the TypeScript twin that defines the answer;
 * `assembly/line-route.ts` must give the same (test/line-route.test.ts).
 */
import { ROUTE_OPENING_MAX, ROUTE_SESSION_MAX } from '../wasm/generated/abi.js';
import { sharedInstance } from '../wasm/wasm-module.js';
import { bufferOver, copyLineIn } from './event-line.js';

/** Bytes the module may read past a line's end (it loads sixteen at a time, from up to two bytes on). */
const SLACK = 18;
/** The shortest line routed by its first bytes: an opening and a one-byte name. */
const SHORTEST_ROUTED = '{"session":"x"'.length;
const KEY = Buffer.from('"session"', 'latin1');
const TRAJECTORY = Buffer.from('"trajectory"', 'latin1');

const isWs = (b: number | undefined): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/**
 * Where the session name in `bytes` is, as `start | (length << 8)`, or 0 when the line is not routed by
 * its first bytes (see the module comment). The twin of the module's `routeSession`, byte for byte.
 */
export function routeSession(bytes: Uint8Array): number {
  const len = bytes.length;
  const lim = Math.min(len, ROUTE_OPENING_MAX);
  if (lim === 0 || bytes[0] !== 0x7b) return 0;
  let p = 1;
  while (p < lim && isWs(bytes[p])) p++;
  if (p + KEY.length > lim) return 0;
  for (let k = 0; k < KEY.length; k++) if (bytes[p + k] !== KEY[k]) return 0;
  p += KEY.length;
  while (p < lim && isWs(bytes[p])) p++;
  if (p >= lim || bytes[p] !== 0x3a) return 0;
  p++;
  while (p < lim && isWs(bytes[p])) p++;
  if (p >= lim || bytes[p] !== 0x22) return 0;
  const start = p + 1;
  let end = start;
  const nameLimit = Math.min(len, start + ROUTE_SESSION_MAX + 1);
  for (; end < nameLimit; end++) {
    const c = bytes[end] as number;
    if (c === 0x22) break;
    if (c < 0x20 || c > 0x7e || c === 0x5c) return 0;
  }
  if (end === start || end >= nameLimit) return 0;
  for (let i = end + 1; i < len; i++) {
    const c = bytes[i];
    if (c === 0x5c && i + 1 < len && bytes[i + 1] === 0x75) return 0;
    if (c === 0x22 && i + KEY.length <= len) {
      let k = 1;
      while (k < KEY.length && bytes[i + k] === KEY[k]) k++;
      if (k === KEY.length) return 0;
    }
    if (c === 0x22 && i + TRAJECTORY.length <= len) {
      let k = 1;
      while (k < TRAJECTORY.length && bytes[i + k] === TRAJECTORY[k]) k++;
      if (k === TRAJECTORY.length) return 0;
    }
  }
  return start | ((end - start) << 8);
}

/**
 * The session `bytes` are routed by (see the module comment), read by the module; null when the line must
 * be read whole to know its session.
 */
export function lineRouteSession(bytes: Uint8Array): string | null {
  if (bytes.length < SHORTEST_ROUTED || bytes[0] !== 0x7b) return null;
  const ptr = copyLineIn(bytes, SLACK);
  if (ptr === 0) return null;
  const at = sharedInstance().exports.routeSession(ptr, bytes.length);
  if (at === 0) return null;
  const start = at & 0xff;
  return bufferOver(bytes).latin1Slice(start, start + (at >>> 8));
}
