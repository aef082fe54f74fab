/**
 * How an Inspect AI eval log ranks among the logs of its task ({@link Standing}), and the standing of a log
 * in its JSON form (`inspect eval --log-format json`, `inspect log
 * convert --to json`), for the pass that finds samples logged again by a newer log (inspect-sample-copies.ts):
 * its task id, whether it is complete (`status` `success`), `eval.created`, and its samples, each named as
 * a `.eval` archive names its entry (`samples/<id>_epoch_<n>.json`), so a JSON log and a `.eval` log of one
 * task are compared too. A regular file is looked at, plain or gzipped (`.json.gz`, inflated here as the
 * reader inflates it), and only when its first bytes are an Inspect log's (`{"version": N, "status": "...",
 * "eval"`: Inspect writes these keys first), so other JSON files cost one read of their head (a gzipped one:
 * its first {@link GZIP_HEAD_BYTES}, inflated as far as they go); the log itself is read whole, at most
 * `maxBytes` (`--max-line-bytes`, past which the reader skips it anyway) compressed and inflated alike,
 * one log at a time. A gzipped log that does not inflate whole is read as it is (the reader says why).
 */
import { closeSync, readSync } from 'node:fs';
import { constants, gunzipSync } from 'node:zlib';
import { isRecord, parseJson } from './json-value.js';
import { openRegularFile, readBoundedFd } from './regular-file.js';

/** How a log ranks among the logs of its task, and the samples it holds (named as `.eval` entries). */
export interface Standing {
  /** The log's path. */
  readonly file: string;
  readonly task: string;
  readonly complete: boolean;
  readonly created: number;
  readonly samples: readonly string[];
}

/** Bytes of a file's head looked at to tell an Inspect JSON log. */
const HEAD_BYTES = 512;
/** The first keys Inspect writes in a JSON log (`version`, `status`, then `eval`), on the head's capped text. */
const INSPECT_HEAD = /^\uFEFF?\s*\{\s*"version"\s*:\s*\d+\s*,\s*"status"\s*:\s*"[a-z_]*"\s*,\s*"eval"\s*:/;

/** The entry name a `.eval` archive gives sample `s` (`samples/<id>_epoch_<n>.json`), or null when it has no id to name it by. */
export function sampleEntryName(s: Readonly<Record<string, unknown>>): string | null {
  if (typeof s.id !== 'string' && typeof s.id !== 'number') return null;
  const epoch = typeof s.epoch === 'number' ? s.epoch : 1;
  return `samples/${String(s.id)}_epoch_${epoch}.json`;
}

/** The standing of the parsed log `v` of `file`, or null when it is no Inspect log with a task id. */
export function jsonLogStanding(v: unknown, file: string): Standing | null {
  if (!isRecord(v) || !isRecord(v.eval) || typeof v.eval.task_id !== 'string' || v.eval.task_id === '' || !Array.isArray(v.samples)) return null;
  const created = typeof v.eval.created === 'string' ? Date.parse(v.eval.created) : NaN;
  const samples: string[] = [];
  for (const s of v.samples) {
    const name = isRecord(s) ? sampleEntryName(s) : null;
    if (name !== null) samples.push(name);
  }
  return { file, task: v.eval.task_id, complete: v.status === 'success', created: Number.isNaN(created) ? -Infinity : created, samples };
}

/**
 * What `read` makes of the regular file at `path`, opened for it and closed after; null when the file cannot
 * be opened or `read` throws (the log is then read as it is, and its issues said then).
 */
export function standingAt(path: string, read: (fd: number) => Standing | null): Standing | null {
  let fd: number;
  try {
    fd = openRegularFile(path);
  } catch {
    return null;
  }
  try {
    return read(fd);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** A gzipped file, by its name. */
const GZIP = /\.gz$/i;
/** Compressed bytes of a gzipped file's head inflated to tell an Inspect JSON log. */
export const GZIP_HEAD_BYTES = 4096;

/** The first {@link HEAD_BYTES} of the file open at `fd`: its own bytes, or when `gzipped` what its compressed head inflates to. */
function headOf(fd: number, gzipped: boolean): Buffer {
  const raw = Buffer.alloc(gzipped ? GZIP_HEAD_BYTES : HEAD_BYTES);
  const n = readSync(fd, raw, 0, raw.length, 0);
  if (!gzipped) return raw.subarray(0, n);
  // a sync flush at the end of the input gives what the bytes read inflate to, without asking for the rest
  return gunzipSync(raw.subarray(0, n), { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: Math.max(HEAD_BYTES, GZIP_HEAD_BYTES * 1032) }).subarray(0, HEAD_BYTES);
}

/**
 * The standing of the JSON file at `path` (gzipped when named `.gz`), or null when it is no Inspect log (by
 * its head), cannot be read or inflated, is over `maxBytes` (compressed or inflated) or is not JSON.
 */
export function readJsonLogStanding(path: string, maxBytes: number): Standing | null {
  const gzipped = GZIP.test(path);
  return standingAt(path, (fd) => {
    if (!INSPECT_HEAD.test(headOf(fd, gzipped).toString('latin1'))) return null;
    const bytes = readBoundedFd(fd, path, maxBytes);
    const parsed = parseJson(new TextDecoder('utf-8', { fatal: true }).decode(gzipped ? gunzipSync(bytes, { maxOutputLength: maxBytes }) : bytes));
    return parsed.ok ? jsonLogStanding(parsed.value, path) : null;
  });
}
