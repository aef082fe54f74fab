/**
 * A detection pipeline: records one session's calls and returns the built-in detectors' signals, in
 * detector order. The reference pipeline runs the plain-TypeScript detectors; the WebAssembly pipeline
 * runs the hot paths in the module and the rest (similar args, chanting) in TypeScript. Both give the same
 * signals for the same events.
 */
import type { ObservedCall } from '../detectors/detector.js';
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';
import type { HistoryReader } from '../state/call-history.js';
import type { CallLog } from '../state/call-log.js';
import type { Rewindable } from '../state/rewindable.js';
import type { ModuleReading } from '../text/module-reading.js';
import type { LoopSignal, ToolEvent } from '../types.js';

/** No signals (shared; never mutated). */
export const NO_SIGNALS: readonly LoopSignal[] = Object.freeze([]);

/** One session's built-in detection. */
export interface Pipeline extends Rewindable {
  /** The session's call log (for verdicts). */
  readonly log: CallLog;
  /** The session's call-history rings, as detectors read them. */
  readonly history: HistoryReader;
  /**
   * What the policy's rules read of the recorded calls once a call is recorded (the failing-again rule,
   * src/policy/failing-again.ts): the rings themselves for the reference; for the module, the host's copy of
   * the newest calls' words (src/state/recent-words.ts), since in a batch its rings may hold later calls.
   */
  readonly recentWords: HistoryReader;
  /**
   * Records a validated, non-exempt event and returns its built-in signals (NO_SIGNALS when none).
   * `proposed`: the call is checked before it runs (it has no outcome, its outcome is left out of progress,
   * and text detectors skip it); the caller rolls it back (mark() before, rollback() after).
   */
  observe(e: ToolEvent, proposed?: boolean): readonly LoopSignal[];
  /** Index of the call recorded last. */
  readonly lastIndex: number;
  /**
   * What the engine's module read of the call recorded last in its pass over the call (the WebAssembly
   * pipeline; the outcome facts read it instead of reading its texts again). Absent: none.
   */
  readonly reading?: ModuleReading;
  /** The call recorded last, as a new object custom detectors may keep. */
  lastCall(): ObservedCall;
  /** Feeds streamed text to the chanting detector, attributed to the latest call. */
  observeText(text: string): LoopSignal | null;
  /** Calls recorded since the last reset. */
  readonly count: number;
  /** The is_stuck view: a call repeated `threshold` times in the frequency window. */
  anyAtThreshold(): boolean;
  /**
   * Makes room now for what the session's next `calls` calls take of the module's memory (state repeat's
   * ring grows as calls come), and for what the next `batch` calls of the thread's sessions take of its shared
   * blocks (a semantic sketch's block a call; `batch` >= `calls`): false when the memory has none (the engine
   * then evicts a session and asks again). With `text`, the call reads a text (a call's non-empty text, or
   * streamed text): the region chanting's stream takes from the first text is made now too. Absent: the
   * pipeline takes no memory as calls come.
   */
  reserve?(calls: number, batch: number, text?: boolean): boolean;
  /** Forgets every call. */
  reset(): void;
  /** Writes the session's whole state, for a snapshot (throws SnapshotError where it cannot). */
  save(w: ByteWriter): void;
  /**
   * Replaces the session's state by what save() wrote (on a pipeline made with the same options), in
   * snapshot format `version` (snapshot-format.ts).
   */
  load(r: ByteReader, version: number): void;
  /**
   * Releases what the pipeline holds (a WebAssembly slot, the thread's shared blocks, uncopied): nothing
   * reads it afterwards, and a call it is asked to record throws a DisposedError.
   */
  dispose(): void;
  /** Whether dispose() was called (LoopDetector refuses every read of a disposed session). */
  readonly disposed: boolean;
}
