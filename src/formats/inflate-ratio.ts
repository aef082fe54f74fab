/**
 * The one rule every decompressing reader applies (a gzip stream, gunzip-members.ts; a zip entry of an
 * Inspect `.eval` log, deflate or Zstandard, zip-entry-data.ts; a gzip labels file, label-file-bytes.ts):
 * data that inflates past a floor to more than {@link MAX_INFLATE_RATIO} times the bytes it came from is
 * refused as a decompression bomb, with an {@link InflateRatioError} naming both figures. Memory was
 * bounded before; time was not: a 1 MB gzip of 1 GB of repeated lines was read through (about a minute),
 * and 1 GB of input could stand for a terabyte.
 *
 * Real traces compress 4-7x (the traces' events.jsonl.gz 6.7x; the sets' sessions under gzip -9 4-7x);
 * 200x is what only long runs of one repeated byte or line reach (deflate's most is about 1032x). A stream
 * is judged on the bytes so far, past {@link INFLATE_RATIO_FLOOR_BYTES} inflated, so a head that packs well
 * (a megabyte of `=` in a tool's output) is not taken for a bomb; a zip entry, whose sizes are known
 * before it is inflated, is judged whole, past its own smaller floor. `LOOPWATCH_MAX_INFLATE_RATIO` sets
 * another ratio, 0 none.
 */

/** Highest inflated : compressed ratio taken by default. */
export const MAX_INFLATE_RATIO = 200;

/** Inflated bytes under which a stream is never refused for its ratio (64 MiB). */
export const INFLATE_RATIO_FLOOR_BYTES = 64 * 1024 * 1024;

/** The environment variable that sets the ratio: a whole number, 0 for no cap. */
export const MAX_INFLATE_RATIO_ENV = 'LOOPWATCH_MAX_INFLATE_RATIO';

/** Data refused for inflating past the ratio. */
export class InflateRatioError extends Error {
  constructor(
    /** Compressed bytes read. */
    readonly compressed: number,
    /** Bytes inflated from them. */
    readonly inflated: number,
    /** The ratio in force. */
    readonly maxRatio: number,
  ) {
    super(`inflates ${compressed} bytes to ${inflated} (so far), a ratio over ${maxRatio}:1 (a decompression bomb?); the rest not read (${MAX_INFLATE_RATIO_ENV}=0 reads it through)`);
    this.name = 'InflateRatioError';
  }
}

/** The ratio in force: `LOOPWATCH_MAX_INFLATE_RATIO` when a whole number (0: none, Infinity), else {@link MAX_INFLATE_RATIO}. */
export function inflateRatioCap(env: NodeJS.ProcessEnv = process.env): number {
  const v = env[MAX_INFLATE_RATIO_ENV]?.trim();
  if (v === undefined || !/^[0-9]{1,9}$/.test(v)) return MAX_INFLATE_RATIO;
  const n = Number(v);
  return n === 0 ? Infinity : n;
}

/** Whether `inflated` bytes from `compressed` are over `maxRatio` past `floor` bytes. */
export function overInflateRatio(compressed: number, inflated: number, maxRatio: number, floor: number = INFLATE_RATIO_FLOOR_BYTES): boolean {
  return inflated > floor && inflated > maxRatio * Math.max(compressed, 1);
}

/** Throws an {@link InflateRatioError} when {@link overInflateRatio}. */
export function checkInflateRatio(compressed: number, inflated: number, maxRatio: number, floor: number = INFLATE_RATIO_FLOOR_BYTES): void {
  if (overInflateRatio(compressed, inflated, maxRatio, floor)) throw new InflateRatioError(compressed, inflated, maxRatio);
}
