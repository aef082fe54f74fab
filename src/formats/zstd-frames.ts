/**
 * Zstandard frames checked before a byte is decoded (RFC 8878): every frame header and block header of a zip
 * entry's data is walked, so that what a decoder would be asked to do is known and bounded first. Refused,
 * each with a {@link ZstdDataError} saying why: no frame or another magic number, skippable frames (metadata,
 * not data), a reserved bit set, a dictionary, a window over {@link MAX_ZSTD_WINDOW}, frame content sizes
 * over the output allowed, a reserved block type, a block over its maximum size, data truncated or trailing,
 * a compressed block whose Huffman weights do not decode in at most 255 steps (./zstd-huffman-weights.ts).
 */
import { literalsTreeDecodes } from './zstd-huffman-weights.js';

/** Why Zstandard data was not decoded; `over`: it would inflate past the output allowed. */
export class ZstdDataError extends Error {
  constructor(message: string, readonly over: boolean = false) {
    super(message);
    this.name = 'ZstdDataError';
  }
}

/** The largest window taken: 128 MiB, libzstd's own default limit (`ZSTD_WINDOWLOG_LIMIT_DEFAULT` 27), so both decoders refuse alike. */
export const MAX_ZSTD_WINDOW = 2 ** 27;

/** One Zstandard frame of a buffer. */
export interface ZstdFrame {
  /** Where the frame starts and ends (past its checksum) in the buffer. */
  readonly start: number;
  readonly end: number;
  /** Its window size in bytes (its content size when it is a single segment). */
  readonly windowSize: number;
  /** Where its header ends and its first block starts. */
  readonly headerEnd: number;
  /** The content size its header says, or null when it says none. */
  readonly contentSize: number | null;
  /** How many blocks it has. */
  readonly blocks: number;
}

const MAGIC = 0xfd2fb528;
const BLOCK_MAX = 128 * 1024;

/** The window size of window descriptor byte `d`. */
export function windowSizeOf(d: number): number {
  const base = 2 ** (10 + (d >>> 3));
  return base + (base / 8) * (d & 7);
}

/** A little-endian unsigned integer of `n` bytes (0 to 8) at `at`, as a number (exact up to 2^53). */
function readLE(b: Uint8Array, at: number, n: number): number {
  let v = 0;
  for (let i = n - 1; i >= 0; i--) v = v * 256 + b[at + i]!;
  return v;
}

/** Checks that `b` holds `n` more bytes at `at`. */
function need(b: Uint8Array, at: number, n: number, what: string): void {
  if (at + n > b.length) throw new ZstdDataError(`is truncated (its ${what} runs past the end of the data)`);
}

/** The frame of `b` starting at `start`; `room`: the bytes of output still allowed. */
function frameAt(b: Uint8Array, start: number, room: number): ZstdFrame {
  need(b, start, 5, 'frame header');
  const magic = (b[start]! | (b[start + 1]! << 8) | (b[start + 2]! << 16) | (b[start + 3]! << 24)) >>> 0;
  if ((magic & 0xfffffff0) === 0x184d2a50) throw new ZstdDataError('holds a skippable frame (metadata, not data), which is not read');
  if (magic !== MAGIC) throw new ZstdDataError(`is not a Zstandard frame (magic number 0x${magic.toString(16)})`);
  const flags = b[start + 4]!;
  if ((flags & 8) !== 0) throw new ZstdDataError('has a frame header with its reserved bit set (corrupt data)');
  const single = (flags & 0x20) !== 0;
  const dictBytes = [0, 1, 2, 4][flags & 3]!;
  const fcsFlag = flags >>> 6;
  const fcsBytes = fcsFlag === 0 ? (single ? 1 : 0) : 2 ** fcsFlag;
  let at = start + 5;
  need(b, at, (single ? 0 : 1) + dictBytes + fcsBytes, 'frame header');
  const windowAt = at;
  if (!single) at++;
  const dict = readLE(b, at, dictBytes);
  at += dictBytes;
  if (dict !== 0) throw new ZstdDataError(`needs dictionary ${dict}, which is not read (Inspect writes none)`);
  const contentSize = fcsBytes === 0 ? null : readLE(b, at, fcsBytes) + (fcsBytes === 2 ? 256 : 0);
  at += fcsBytes;
  if (contentSize !== null && contentSize > room) throw new ZstdDataError(`has a frame that says it holds ${contentSize} bytes, more than the ${room} allowed`, true);
  const windowSize = single ? contentSize! : windowSizeOf(b[windowAt]!);
  if (windowSize > MAX_ZSTD_WINDOW) throw new ZstdDataError(`has a window of ${windowSize} bytes, over the limit of ${MAX_ZSTD_WINDOW}`);
  const headerEnd = at;
  const blockMax = Math.min(Math.max(windowSize, 1), BLOCK_MAX);
  let blocks = 0;
  for (let last = false; !last; blocks++) {
    need(b, at, 3, 'block header');
    const h = b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
    last = (h & 1) === 1;
    const type = (h >>> 1) & 3;
    const size = h >>> 3;
    if (type === 3) throw new ZstdDataError('has a block of the reserved type (corrupt data)');
    if (size > blockMax) throw new ZstdDataError(`has a block of ${size} bytes, over its maximum of ${blockMax} (corrupt data)`);
    at += 3;
    const onWire = type === 1 ? 1 : size;
    need(b, at, onWire, 'block');
    at += onWire;
  }
  if ((flags & 4) !== 0) {
    need(b, at, 4, 'checksum');
    at += 4;
  }
  checkTrees(b.subarray(0, at), headerEnd);
  return { start, end: at, windowSize, headerEnd, contentSize, blocks };
}

/**
 * Checks every compressed block of the frame whose blocks start at `first` of `frame` (the data up to the
 * frame's end, what a decoder is handed of it): a Huffman tree whose weights never end is refused before any
 * decoder loops on it.
 */
function checkTrees(frame: Uint8Array, first: number): void {
  for (let at = first, last = false; !last;) {
    const h = frame[at]! | (frame[at + 1]! << 8) | (frame[at + 2]! << 16);
    last = (h & 1) === 1;
    const type = (h >>> 1) & 3;
    if (type === 2 && !literalsTreeDecodes(frame, at + 3)) {
      throw new ZstdDataError('has a compressed block whose Huffman weights do not decode (corrupt data)');
    }
    at += 3 + (type === 1 ? 1 : h >>> 3);
  }
}

/**
 * The frames of `b`, all checked (see the file's comment), their content sizes together at most `maxOutput`;
 * throws a {@link ZstdDataError} saying why not.
 */
export function zstdFrames(b: Uint8Array, maxOutput: number): ZstdFrame[] {
  if (b.length === 0) throw new ZstdDataError('is empty (no Zstandard frame)');
  const frames: ZstdFrame[] = [];
  let room = maxOutput;
  for (let at = 0; at < b.length;) {
    const f = frameAt(b, at, room);
    frames.push(f);
    room -= f.contentSize ?? 0;
    at = f.end;
  }
  return frames;
}
