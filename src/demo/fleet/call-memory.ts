/**
 * What an agent's plain work has already called, so that it draws a new call instead (a few tries at
 * most): real agents repeat a call now and then, not at every step. Calls are told apart by tool and args.
 */
import type { ToolEvent } from '../../types.js';

/** A call chosen but not necessarily made: its tool and args. */
export interface Draft {
  readonly tool: string;
  readonly args?: unknown;
}

/** Draws tried before a repeated call is accepted. */
export const FRESH_TRIES = 8;

/** The calls a session has made. */
export class CallMemory {
  private readonly seen = new Set<string>();

  private static key(d: Draft): string {
    return `${d.tool} ${JSON.stringify(d.args)}`;
  }

  /** Records calls made outside plain work (opening steps, legitimate patterns). */
  remember(events: Iterable<ToolEvent>): void {
    for (const e of events) this.seen.add(CallMemory.key(e));
  }

  /** The first draft of `draw` whose call was not made before, within {@link FRESH_TRIES} draws (else the last); recorded. */
  fresh<T extends Draft>(draw: () => T): T {
    let d = draw();
    let k = CallMemory.key(d);
    for (let n = 1; n < FRESH_TRIES && this.seen.has(k); n++) k = CallMemory.key((d = draw()));
    this.seen.add(k);
    return d;
  }
}
