/**
 * The contract of a trace format reader: records in, calls, session ends and issues out. A reader is made
 * per input, so state it keeps (the events format's live sessions) lasts one input.
 */
import type { RecordUnit } from './read-records.js';
import type { TraceItem } from './trace-record.js';

/** The input a reader reads. */
export interface InputName {
  /** The path as given or as found in a folder (`<stdin>` for standard input); items name it. */
  readonly file: string;
  /** The path relative to the folder it was found in, or the file's base name: SWE-agent session ids. */
  readonly name: string;
}

/** Reads the records of one input in one format. */
export interface FormatReader {
  /** The items of one record, in order. */
  record(unit: RecordUnit): Iterable<TraceItem>;
  /** Items due once the input has ended (the events format ends its sessions here). */
  finish(): Iterable<TraceItem>;
}
