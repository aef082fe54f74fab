/**
 * Inspect AI samples logged twice, read once. `inspect eval-retry` (and an eval set retrying a task) writes a
 * new log of the same task (the same `eval.task_id`, a new `run_id` and `eval_id`) holding again, unchanged
 * (the same `uuid`), every sample the old log completed, beside the samples it runs again; the old log stays
 * beside it (`--no-retry-cleanup`, a log left `started`, a retry by hand), and so does a copied `.eval` file.
 * A folder scan would count those samples twice. Before any log is read, each `.eval` file's directory and
 * spec (`header.json`, else `_journal/start.json`) are read, and each JSON log's head, then the log whole
 * (inspect-log-standing.ts; its samples named as a `.eval` file names them, so both forms are compared): a sample (task id, `samples/<id>_epoch_<n>.json`)
 * held by several logs is read from the newest complete one only (a log whose header (a JSON log's `status`) says `success` before
 * any other, then the latest `eval.created`, then the greater path), and passed over in the others, each
 * such log saying how many with one note. The choice rests on the logs alone, never on the order they are
 * given or read in. At most {@link MAX_SAMPLE_KEYS} samples are remembered; past them the rest are read as
 * they are (said once).
 */
import { fileSource } from './zip-file-source.js';
import { inflateRatioCap } from './inflate-ratio.js';
import { isRecord, parseJson } from './json-value.js';
import { type Standing, readJsonLogStanding, standingAt } from './inspect-log-standing.js';
import type { TraceNote } from './trace-record.js';
import { type ZipEntry, type ZipSource, readZipDirectory } from './zip-directory.js';
import { readZipEntry } from './zip-entry-data.js';

export type { Standing };

/** The most samples (and passed-over copies) remembered by one plan. */
export const MAX_SAMPLE_KEYS = 1_000_000;

const SAMPLE = /^samples\/[^/]+\.json$/;
const HEADER = 'header.json';
const START = '_journal/start.json';

/** The sample entries of one log not read, and the newer log they are read from (one of them, to name it). */
export interface PassedOver {
  readonly entries: ReadonlySet<string>;
  readonly keptIn: string;
}

/** What a plan decided: per log file, the entries it passes over. */
export interface SampleCopiesPlan {
  readonly passOver: ReadonlyMap<string, PassedOver>;
  /** A note when {@link MAX_SAMPLE_KEYS} was reached, else null. */
  readonly capped: TraceNote | null;
}

/** Whether log `a` is newer than log `b` (see the file's comment): complete first, then created, then path. */
function newer(a: Standing, b: Standing): boolean {
  if (a.complete !== b.complete) return a.complete;
  if (a.created !== b.created) return a.created > b.created;
  return a.file > b.file;
}

/** The standing of the archive `src`, or null when it is no readable Inspect log with a task id (it is then read as it is, and its issues said then). */
function standingOf(src: ZipSource, file: string, maxEntryBytes: number): Standing | null {
  let entries: ZipEntry[];
  try {
    entries = readZipDirectory(src);
  } catch {
    return null;
  }
  const byName = new Map<string, ZipEntry>();
  for (const e of entries) if (e.problem === null) byName.set(e.name, e);
  for (const name of [HEADER, START]) {
    const e = byName.get(name);
    if (e === undefined) continue;
    let v: unknown;
    try {
      const parsed = parseJson(new TextDecoder('utf-8', { fatal: true }).decode(readZipEntry(src, e, { maxEntryBytes, maxRatio: inflateRatioCap() })));
      v = parsed.ok ? parsed.value : null;
    } catch {
      v = null;
    }
    if (!isRecord(v) || !isRecord(v.eval) || typeof v.eval.task_id !== 'string' || v.eval.task_id === '') return null;
    const created = typeof v.eval.created === 'string' ? Date.parse(v.eval.created) : NaN;
    return {
      file,
      task: v.eval.task_id,
      complete: name === HEADER && v.status === 'success',
      created: Number.isNaN(created) ? -Infinity : created,
      samples: [...byName.keys()].filter((n) => SAMPLE.test(n)),
    };
  }
  return null;
}

/** An Inspect AI `.eval` log, by its name (Inspect names every one so); other files are looked at as JSON logs. */
export const EVAL_LOG = /\.eval$/i;
/** A file that may be an Inspect AI log in its JSON form, plain or gzipped, by its name (its head tells: inspect-log-standing.ts). */
export const JSON_LOG = /\.json(\.gz)?$/i;

/** The standing of the `.eval` file at `path` (see {@link standingOf}), or of the JSON log there (inspect-log-standing.ts), or null. */
function readStanding(path: string, maxEntryBytes: number): Standing | null {
  if (!EVAL_LOG.test(path)) return readJsonLogStanding(path, maxEntryBytes);
  return standingAt(path, (fd) => standingOf(fileSource(fd), path, maxEntryBytes));
}

/**
 * Which sample entries of the `.eval` logs `files` to pass over: those another of them holds too and that
 * is newer. `read` gives a file's standing (tests hand archives built in memory).
 */
export function planSampleCopies(files: readonly string[], maxEntryBytes: number, maxKeys = MAX_SAMPLE_KEYS, read: (file: string) => Standing | null = (f) => readStanding(f, maxEntryBytes)): SampleCopiesPlan {
  const best = new Map<string, Standing>();
  // per log passed over: its entries, and the key of the first (whose newest holder it is named by at the end)
  const losers = new Map<string, { entries: Set<string>; firstKey: string }>();
  let remembered = 0;
  let capped: TraceNote | null = null;
  const lose = (file: string, entry: string, key: string): void => {
    const l = losers.get(file);
    if (l === undefined) losers.set(file, { entries: new Set([entry]), firstKey: key });
    else l.entries.add(entry);
    remembered++;
  };
  for (const file of files) {
    const s = read(file);
    if (s === null) continue;
    if (remembered + s.samples.length > maxKeys) {
      capped = { kind: 'note', file, line: 0, message: `more than ${maxKeys} Inspect AI samples among the logs: from this log on, samples logged again in another log (eval-retry) are not looked for and may be counted twice` };
      break;
    }
    for (const entry of s.samples) {
      const key = `${s.task}\u0000${entry}`;
      const held = best.get(key);
      if (held === undefined) {
        best.set(key, s);
        remembered++;
      } else if (held.file === s.file) continue; // one file given twice is read twice, as any input is
      else if (newer(s, held)) {
        lose(held.file, entry, key);
        best.set(key, s);
      } else lose(s.file, entry, key);
    }
  }
  const passOver = new Map<string, PassedOver>();
  for (const [file, l] of losers) passOver.set(file, { entries: l.entries, keptIn: best.get(l.firstKey)!.file });
  return { passOver, capped };
}

/** The note of `file`, which passed over `count` samples read from `p.keptIn`. */
export function passedOverNote(file: string, count: number, p: PassedOver): TraceNote {
  return {
    kind: 'note',
    file,
    line: 0,
    message: `${count} Inspect AI ${count === 1 ? 'sample' : 'samples'} passed over: logged again by a newer log of the same task (eval-retry, an eval set's retry, or a copy), read from ${p.keptIn}`,
    samplesPassedOver: count,
  };
}
