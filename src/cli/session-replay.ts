/**
 * One session's calls checked again, in order, by one LoopDetector, each made into the row `explain`
 * prints: index, step, tool, args and outcome previews, the verdict, and the call where its loop began.
 * `loopwatch explain` and the HTML report's timelines both replay sessions this way, so they say the same.
 *
 * The detector does not count calls of exempt tools, so its indices run behind the session's; the replay
 * keeps the detector index at which each exempt (or refused) call came (a list that grows only with them) to
 * number a verdict's loop start as the session does. A call after a person's prompt (TraceCall.prompted) comes
 * after a fresh start, as in the scan.
 */
import type { TraceCall } from '../formats/trace-record.js';
import type { LoopDetectorOptions } from '../options/options.js';
import { LoopDetector, type SessionMode } from '../session/loop-detector.js';
import type { Verdict } from '../types.js';
import { type ExplainRow, previewArgs, previewOutcome } from './render/explain-text.js';

/** The row of one replayed call, and the error when the detector refused it (it is then shown without a verdict). */
export interface ReplayedCall {
  readonly row: ExplainRow;
  readonly refused: Error | null;
}

/** The replay's session mode: checks only after the fact. */
const CHECKS_ONLY: SessionMode = Object.freeze({ checksOnly: true });

/** A session's calls, replayed one at a time. */
export class SessionReplay {
  private readonly detector: LoopDetector;
  /** Calls replayed. */
  private calls = 0;
  /** Calls the detector numbered (neither exempt nor refused). */
  private numbered = 0;
  /** Detector index at which each exempt or refused call came, in order. */
  private readonly skips: number[] = [];

  constructor(options: LoopDetectorOptions, session?: string) {
    // a replay only checks after the fact (it never snapshots nor proposes)
    this.detector = new LoopDetector(options, session, CHECKS_ONLY);
  }

  /** The session's index of the call the detector numbered `d`. */
  private sessionIndex(d: number): number {
    let lo = 0;
    let hi = this.skips.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.skips[mid] as number) <= d) lo = mid + 1;
      else hi = mid;
    }
    return d + lo;
  }

  /** Checks the session's next call. */
  next(c: TraceCall): ReplayedCall {
    const index = this.calls++;
    const skippedBefore = this.detector.stats().skipped;
    let verdict: Verdict | null = null;
    let refused: Error | null = null;
    // a person's prompt before it: a fresh start, as the scan gives one (and the agent's hook)
    if (c.prompted === true && index > 0) this.detector.freshStart();
    try {
      verdict = this.detector.check(c.event);
    } catch (e) {
      refused = e instanceof Error ? e : new Error(String(e));
    }
    if (refused === null && this.detector.stats().skipped === skippedBefore) this.numbered++;
    else this.skips.push(this.numbered);
    const loopStart = verdict === null ? null : this.sessionIndex(verdict.loopStart);
    const row: ExplainRow = { index, step: c.event.step ?? null, tool: c.event.tool, args: previewArgs(c.event.args), outcome: previewOutcome(c.event), verdict, loopStart };
    return { row, refused };
  }
}
