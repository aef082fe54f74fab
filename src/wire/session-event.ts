/**
 * A tool call with the session it belongs to: what a record read from bytes gives (event-bytes.ts), what
 * `checkBatch` takes, and what a pool's worker reads back from a packed batch.
 */
import type { ToolEvent } from '../types.js';

/** A tool call with the session it belongs to, for `checkBatch`. */
export interface SessionEvent extends ToolEvent {
  /** The session's id. */
  readonly session: string;
}

/**
 * `event` with its session, as a fixed-shape object: a copy made by spreading would make every later
 * field read of it slow (as validation reads each field of every event).
 */
export function sessionEvent(session: string, e: ToolEvent): SessionEvent {
  return { session, tool: e.tool, args: e.args, result: e.result, error: e.error, text: e.text, description: e.description, step: e.step, round: e.round };
}
