/**
 * A synthetic fleet: many sessions, each a stream of calls of one size class (50% small, 40% medium, 10%
 * large args, as the benchmark mix asks), with results; one session in eight falls into a loop
 * part-way (a repeated failing call or an A-B cycle), the others walk their variants. Every call has
 * args objects of its own (parsed from JSON, as a platform receives them). Deterministic: the same
 * arguments give the same fleet, call for call.
 */
import type { SessionEvent } from '../src/engine/loop-engine.js';
import { type Size, events as sizedEvents, looping } from './fixtures.js';

/** The size class of session `s`: 50% small, 40% medium, 10% large. */
export function sizeOf(s: number): Size {
  const k = s % 10;
  return k < 5 ? 'small' : k < 9 ? 'medium' : 'large';
}

/** Session `s`'s id. */
export const sessionName = (s: number): string => `session-${s}`;

/** Whether session `s` falls into a loop (from its middle call on): one session in eight. */
export const isLooping = (s: number): boolean => s % 8 === 3;

/**
 * The fleet's calls interleaved round-robin (session 0's first call, session 1's first call, ...), each
 * carrying its session id. Args are objects, or JSON text with `asJson` (as model APIs deliver them).
 */
export function fleetEvents(sessions: number, callsPerSession: number, asJson = false): SessionEvent[] {
  const streams: Record<Size, ReturnType<typeof sizedEvents>> = {
    small: sizedEvents('small', callsPerSession + 97, true),
    medium: sizedEvents('medium', callsPerSession + 97, true),
    large: sizedEvents('large', callsPerSession + 97, true),
  };
  const loops: Record<Size, ReturnType<typeof looping>> = { small: looping('small', callsPerSession), medium: looping('medium', callsPerSession), large: looping('large', callsPerSession) };
  const out: SessionEvent[] = new Array<SessionEvent>(sessions * callsPerSession);
  let k = 0;
  for (let c = 0; c < callsPerSession; c++) {
    for (let s = 0; s < sessions; s++) {
      const size = sizeOf(s);
      const stuckFrom = isLooping(s) ? Math.floor(callsPerSession / 2) : Infinity;
      const e = c >= stuckFrom ? (loops[size][c] as SessionEvent) : (streams[size][(c + 13 * s) % (callsPerSession + 97)] as SessionEvent);
      // every call its own objects, as a platform receiving JSON has (shared objects would flatter in-thread checks)
      const text = JSON.stringify(e.args);
      const args: unknown = asJson ? text : JSON.parse(text);
      out[k++] = e.error === undefined ? { session: sessionName(s), tool: e.tool, args, result: e.result } : { session: sessionName(s), tool: e.tool, args, result: e.result, error: e.error };
    }
  }
  return out;
}
