/**
 * Inspect AI's `.eval` logs, read in place: a zip archive (its default log format) holding `header.json`
 * (the finished log's `{version, eval, plan, results, stats, ...}` without samples), `_journal/start.json`
 * (`{version, eval, plan}`, there from the start), one `samples/<id>_epoch_<n>.json` per sample and epoch,
 * and summaries, reductions and journal entries that hold no messages (not read). A sample written again
 * (a requeued one) is a later entry of the same name: the last one is read, as Inspect does. Each sample is
 * handed on as one Inspect log record `{eval, samples: [sample]}` (inspect-log.ts reads it), one at a time,
 * so no more than one sample is held. The archive is read through zip-directory.ts and zip-entry-data.ts,
 * bounded; an entry that cannot be read is an issue naming the file and the entry, and the rest is read.
 */
import { closeSync } from 'node:fs';
import { fileSource } from './zip-file-source.js';
import { parseJson, isRecord } from './json-value.js';
import type { RecordUnit } from './read-records.js';
import { openRegularFile, readFailure } from './regular-file.js';
import { type TraceIssue, type TraceNote, issue } from './trace-record.js';
import { type PassedOver, passedOverNote } from './inspect-sample-copies.js';
import { type ZipEntry, type ZipSource, ZipFormatError, readZipDirectory } from './zip-directory.js';
import { inflateRatioCap } from './inflate-ratio.js';
import { ZipEntryError, readZipEntry } from './zip-entry-data.js';

/** The most bytes inflated from one archive, all entries together. */
export const MAX_ARCHIVE_INFLATED_BYTES = 4 * 1024 * 1024 * 1024;

/** A sample entry: `samples/<name>.json`, directly in the folder. */
export const SAMPLE_ENTRY = /^samples\/[^/]+\.json$/;
/** The shell of a sample stored in chunks (`samples/<id>_epoch_<n>/sample.json` beside `messages/<start>.json`, ...): Inspect's large-sample layout, written by none of its releases yet (2026-08), not read. */
const CHUNKED_SHELL = /^samples\/[^/]+\/sample\.json$/;
const HEADER = 'header.json';
const START = '_journal/start.json';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** How an archive is read. */
export interface EvalArchiveOptions {
  /** Largest entry once inflated (`--max-line-bytes`). */
  readonly maxEntryBytes: number;
  /** Hears of the archive's size once it is read. */
  readonly onBytes?: (bytes: number) => void;
  /** Sample entries not read: copies of samples a newer log of the same task holds (inspect-sample-copies.ts). */
  readonly passOver?: PassedOver;
}

/**
 * The records of the `.eval` archive at `path` (`file` names it in items), a sample at a time, with an issue
 * for each entry not read (or one for the archive when it cannot be read at all).
 */
export function* readEvalArchive(path: string, file: string, options: EvalArchiveOptions): Generator<(RecordUnit | TraceIssue | TraceNote)[]> {
  let fd: number;
  try {
    fd = openRegularFile(path);
  } catch (e) {
    return yield [issue('read-error', file, 0, `cannot read the file: ${readFailure(e)}`)];
  }
  try {
    const src = fileSource(fd);
    yield* archiveRecords(src, file, options);
    options.onBytes?.(src.size);
  } finally {
    closeSync(fd);
  }
}

/** The records of the archive `src` (see {@link readEvalArchive}); exported for tests of archives built in memory. */
export function* archiveRecords(src: ZipSource, file: string, options: EvalArchiveOptions): Generator<(RecordUnit | TraceIssue | TraceNote)[]> {
  const head = src.read(0, 2);
  if (head[0] === 0x1f && head[1] === 0x8b) return yield [issue('read-error', file, 0, 'a gzipped zip archive, which is not read in place: gunzip it, then scan the archive; input skipped')];
  let entries: ZipEntry[];
  try {
    entries = readZipDirectory(src);
  } catch (e) {
    if (!(e instanceof ZipFormatError)) throw e;
    return yield [issue('read-error', file, 0, `a zip archive that cannot be read: ${e.message}; input skipped`)];
  }
  const byName = new Map<string, ZipEntry>();
  const out: (RecordUnit | TraceIssue | TraceNote)[] = [];
  for (const e of entries) {
    if (e.problem !== null && SAMPLE_ENTRY.test(e.name) === false && e.name !== HEADER && e.name !== START) out.push(entryIssue(file, e, e.problem));
    else {
      byName.delete(e.name); // a later entry of the same name replaces an earlier one, read in its place
      byName.set(e.name, e);
    }
  }
  const samples = [...byName.values()].filter((e) => SAMPLE_ENTRY.test(e.name));
  if (!byName.has(HEADER) && !byName.has(START) && samples.length === 0 && ![...byName.keys()].some((n) => CHUNKED_SHELL.test(n))) {
    out.push(issue('unknown-format', file, 0, `a zip archive that is not an Inspect AI .eval log (no ${HEADER}, ${START} or samples/*.json entry); input skipped`));
    return yield out;
  }
  const chunked = [...byName.keys()].filter((n) => CHUNKED_SHELL.test(n)).length;
  if (chunked > 0) out.push(issue('read-error', file, 0, `${chunked} ${chunked === 1 ? 'sample is' : 'samples are'} stored in chunks (samples/<id>_epoch_<n>/sample.json and messages/...: Inspect's large-sample layout), which loopwatch does not read yet; those samples skipped`));
  let budget = MAX_ARCHIVE_INFLATED_BYTES;
  const limits = { maxEntryBytes: options.maxEntryBytes, maxRatio: inflateRatioCap() };
  /** The JSON of entry `e`, or null with an issue in `out`. */
  const json = (e: ZipEntry, sink: (RecordUnit | TraceIssue | TraceNote)[]): unknown => {
    if (e.size > budget) {
      sink.push(entryIssue(file, e, `the archive's entries inflate past ${MAX_ARCHIVE_INFLATED_BYTES} bytes in all`));
      return null;
    }
    let text: string;
    try {
      const bytes = readZipEntry(src, e, limits);
      budget -= bytes.length;
      text = utf8.decode(bytes);
    } catch (err) {
      if (err instanceof ZipEntryError) sink.push(entryIssue(file, e, err.message, err.tooLarge ? 'too-long' : 'read-error'));
      else if (err instanceof TypeError) sink.push(entryIssue(file, e, 'not valid UTF-8', 'invalid-utf8'));
      else throw err;
      return null;
    }
    const parsed = parseJson(text);
    if (!parsed.ok) {
      sink.push(entryIssue(file, e, parsed.message, 'invalid-json'));
      return null;
    }
    return parsed.value;
  };
  const spec = specOf(byName, json, out, file);
  let passed = 0;
  for (const e of samples) {
    if (options.passOver?.entries.has(e.name) === true) {
      passed++;
      continue;
    }
    const sample = json(e, out);
    if (sample !== null) out.push({ kind: 'record', value: { eval: spec, samples: [sample] }, file, line: e.index + 1, fallbackSession: `${file}#${e.name}` });
    if (out.length > 0) yield out.splice(0);
  }
  if (passed > 0) out.push(passedOverNote(file, passed, options.passOver!));
  if (out.length > 0) yield out;
}

/** The eval spec (task, model, ...) from `header.json`, else `_journal/start.json`; `{}` when neither has one. */
function specOf(byName: ReadonlyMap<string, ZipEntry>, json: (e: ZipEntry, sink: (RecordUnit | TraceIssue | TraceNote)[]) => unknown, out: (RecordUnit | TraceIssue | TraceNote)[], file: string): Record<string, unknown> {
  for (const name of [HEADER, START]) {
    const e = byName.get(name);
    if (e === undefined) continue;
    const v = json(e, out);
    if (isRecord(v) && isRecord(v.eval)) return v.eval;
    if (v !== null) out.push(entryIssue(file, e, 'expected an object with an "eval" object; sessions are named task/<id>#<epoch>', 'bad-record'));
  }
  return {};
}

/** The issue of entry `e` of `file`, not read because of `why`. */
function entryIssue(file: string, e: ZipEntry, why: string, code: TraceIssue['code'] = 'read-error'): TraceIssue {
  return issue(code, file, 0, `entry ${JSON.stringify(e.name)}: ${why}; entry skipped`);
}
