/**
 * Lines a scan with worker threads hands over unread: once an input is known to be in the events format, a
 * JSON Lines line whose first bytes name its session (src/formats/line-route.ts, which also passes over a
 * line holding `"trajectory"`: a SWE-agent record to detect-format.ts) goes to the session's worker as
 * its bytes; the worker reads it. Any line that is not read so (its record then says what the events reader
 * says of it) is read in the calling thread as before. A routed line that holds no call comes back as an
 * error, and the scan reads it again the usual way ({@link rereadLine}) for the issue the reader words.
 */
import { lineRouteSession } from './line-route.js';
import type { TraceItem } from './trace-record.js';

/** A line handed over as bytes, with the session its first bytes name. */
export interface RawLine {
  readonly kind: 'raw';
  /** The line's bytes without its line ending (a view of the chunk read). */
  readonly bytes: Uint8Array;
  /** 1-based line number. */
  readonly line: number;
  readonly session: string;
}

/** A call of an events-format input handed over as its line's bytes (a scan item: see readScanBatches). */
export interface TraceLine {
  readonly kind: 'line';
  readonly session: string;
  readonly bytes: Uint8Array;
  /** The input the line was read from. */
  readonly file: string;
  /** 1-based line number. */
  readonly line: number;
}

/** Which sessions' lines are handed over unread (the others are read as usual), by the session their first bytes name. */
export type RouteFilter = (session: string) => boolean;

/** Whether lines are routed now: set by the input's reader once its format is known to be events. */
export interface RouteGate {
  active: boolean;
  /** Only these sessions' lines are routed. @default every session's */
  readonly only?: RouteFilter;
}

/**
 * `bytes` (line `line`) as a RawLine when it is routed by its first bytes (no `"trajectory"` either) and
 * `only` (if given) takes its session, else null (read as usual).
 */
export function routedLine(bytes: Uint8Array, line: number, only?: RouteFilter): RawLine | null {
  const session = lineRouteSession(bytes);
  return session === null || (only !== undefined && !only(session)) ? null : { kind: 'raw', bytes, line, session };
}

/** What a scan reads: trace items, and with `routeLines` the lines handed over unread. */
export type ScanItem = TraceItem | TraceLine;
