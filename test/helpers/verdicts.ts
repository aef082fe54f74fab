/**
 * Verdicts as comparable text, and the reference every many-session runner is held to: one LoopDetector
 * per session.
 */
import { LoopDetector } from '../../src/index.js';
import type { LoopDetectorOptions, SessionEvent, ToolEvent, Verdict } from '../../src/index.js';

/** The two engines every policy test runs on, which must agree. */
export const ENGINES = ['wasm', 'reference'] as const;

/** One of {@link ENGINES}. */
export type Engine = (typeof ENGINES)[number];

/** What one LoopDetector (made with `options`) says of each event in turn. */
export function verdictsOf(events: readonly ToolEvent[], options: LoopDetectorOptions = {}): (Verdict | null)[] {
  const d = new LoopDetector(options);
  try {
    return events.map((e) => d.check(e));
  } finally {
    d.dispose();
  }
}

/** Each verdict's action, `-` where there was none. */
export const actionsOf = (vs: readonly (Verdict | null)[]): string[] => vs.map((v) => v?.action ?? '-');

/** A verdict, null or per-call Error as JSON text (errors as `Name: message`). */
export const json = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (x instanceof Error ? `${x.name}: ${x.message}` : x));

/** What a LoopDetector per session (made with `options`) says, event by event, as json() text. */
export function perSession(events: readonly SessionEvent[], options: LoopDetectorOptions = {}): string[] {
  const ds = new Map<string, LoopDetector>();
  const out = events.map((e) => {
    let d = ds.get(e.session);
    if (d === undefined) ds.set(e.session, (d = new LoopDetector(options, e.session)));
    return json(d.check(e));
  });
  for (const d of ds.values()) d.dispose();
  return out;
}
