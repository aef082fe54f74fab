/**
 * A synthetic fleet: many sessions, each a stream of calls of one size class (50% small, 40% medium, 10%
 * large args, as the benchmark mix asks), with results; one session in eight falls into a loop
 * part-way (a repeated failing call or an A-B cycle), the others walk their variants. Every call has
 * args objects of its own (parsed from JSON, as a platform receives them). Deterministic: the same
 * arguments give the same fleet, call for call.
 */
import type { SessionEvent } from '../src/engine/loop-engine.js';
import type { ToolEvent } from '../src/types.js';
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
  return fleetSlice(sessions, callsPerSession, 0, sessions * callsPerSession, asJson);
}

/** The generator's per-size streams, shared by the slices of one fleet shape. */
const streamsBy = new Map<number, { streams: Record<Size, ToolEvent[]>; loops: Record<Size, ToolEvent[]> }>();

/**
 * Calls `from` to `to` (exclusive) of the fleet fleetEvents() gives, the same call for call: a benchmark
 * can build its calls a window at a time, so that it never holds the whole fleet's objects (a garbage
 * collector tracing a gigabyte of the harness's events would be timed as the engine's).
 */
export function fleetSlice(sessions: number, callsPerSession: number, from: number, to: number, asJson = false): SessionEvent[] {
  let shape = streamsBy.get(callsPerSession);
  if (shape === undefined) {
    shape = {
      streams: { small: sizedEvents('small', callsPerSession + 97, true), medium: sizedEvents('medium', callsPerSession + 97, true), large: sizedEvents('large', callsPerSession + 97, true) },
      loops: { small: looping('small', callsPerSession), medium: looping('medium', callsPerSession), large: looping('large', callsPerSession) },
    };
    streamsBy.clear();
    streamsBy.set(callsPerSession, shape);
  }
  const { streams, loops } = shape;
  const end = Math.min(to, sessions * callsPerSession);
  const out: SessionEvent[] = new Array<SessionEvent>(Math.max(0, end - from));
  for (let k = from; k < end; k++) {
    const c = Math.floor(k / sessions);
    const s = k - c * sessions;
    const size = sizeOf(s);
    const stuckFrom = isLooping(s) ? Math.floor(callsPerSession / 2) : Infinity;
    const e = c >= stuckFrom ? (loops[size][c] as ToolEvent) : (streams[size][(c + 13 * s) % (callsPerSession + 97)] as ToolEvent);
    // every call its own objects, as a platform receiving JSON has (shared objects would flatter in-thread checks)
    const text = JSON.stringify(e.args);
    const args: unknown = asJson ? text : JSON.parse(text);
    out[k - from] = e.error === undefined ? { session: sessionName(s), tool: e.tool, args, result: e.result } : { session: sessionName(s), tool: e.tool, args, result: e.result, error: e.error };
  }
  return out;
}
