/**
 * Scanning the fleet: each session's calls through a LoopDetector of its own (default options unless
 * told otherwise), keeping of each verdict what scoring needs: the call, the kind and the action.
 */
import type { LoopDetectorOptions } from '../../options/options.js';
import { resolveOptions } from '../../options/resolve-options.js';
import { LoopDetector } from '../../session/loop-detector.js';
import type { LoopAction, LoopKind, ToolEvent } from '../../types.js';
import type { FleetSession } from './truth.js';

/** One verdict of a scan, as scoring reads it. */
export interface ScanVerdict {
  /** Position (from 0) of the call in the session's events (exempt tools included, unlike `Verdict.index`). */
  readonly index: number;
  readonly kind: LoopKind;
  readonly action: LoopAction;
}

/** Verdicts of each session, by session id. */
export type FleetVerdicts = ReadonlyMap<string, readonly ScanVerdict[]>;

/** The verdicts a detector gives on a session's calls, in call order. */
export function scanEvents(detector: LoopDetector, events: readonly ToolEvent[]): ScanVerdict[] {
  const out: ScanVerdict[] = [];
  events.forEach((e, index) => {
    const v = detector.check(e);
    if (v !== null) out.push({ index, kind: v.kind, action: v.action });
  });
  return out;
}

/**
 * Scans every session with a fresh LoopDetector under `options` (resolved once, shared by all sessions);
 * each detector is disposed when its session is done.
 */
export function scanFleet(sessions: Iterable<FleetSession>, options: LoopDetectorOptions = {}): Map<string, ScanVerdict[]> {
  const resolved = resolveOptions(options);
  const out = new Map<string, ScanVerdict[]>();
  for (const s of sessions) {
    const d = new LoopDetector(resolved, s.session);
    try {
      out.set(s.session, scanEvents(d, s.events));
    } finally {
      d.dispose();
    }
  }
  return out;
}
