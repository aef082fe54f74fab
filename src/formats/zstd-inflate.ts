/**
 * Zstandard data inflated bounded, one function on every Node.js: node:zlib's decoder where it has one
 * (22.15 and later), else fzstd 0.1.1 (pure JavaScript, MIT, no dependencies, 24 kB). Both are handed only data whose
 * frames passed {@link zstdFrames} (no dictionary, no skippable frame, window at most 128 MiB, content sizes
 * within the output allowed), and both stop at `maxOutputLength`: zlib by its `maxOutputLength`, fzstd block
 * by block as its output is copied into a buffer of that size, a block that would write past it refused. A
 * frame whose content size lies is refused, and so is one whose blocks times window exceeds {@link MAX_JS_WORK}
 * on the fzstd path. fzstd does not check a frame's content checksum (the low 32 bits of XXH64 of what the
 * frame inflates to): it is checked here, with the TypeScript XXH64 the fingerprints use, so a frame whose
 * checksum is wrong is refused on every Node.js, as libzstd refuses it (before, fzstd's path passed it, and
 * an entry whose checksum alone was corrupt was read when its CRC-32 matched).
 */
import * as zlib from 'node:zlib';
import { Decompress } from 'fzstd';
import { xxh64 } from '../fingerprint/xxh64.js';
import { type ZstdFrame, ZstdDataError, windowSizeOf, zstdFrames } from './zstd-frames.js';

type NativeInflate = (data: Uint8Array, options: { maxOutputLength: number }) => Buffer;
/** node:zlib's Zstandard decoder, where this Node.js has it (22.15 and later). */
const native = (zlib as unknown as { zstdDecompressSync?: NativeInflate }).zstdDecompressSync;

/** Which decoder {@link inflateZstd} uses here. */
export const ZSTD_DECODER: 'node:zlib' | 'fzstd' = typeof native === 'function' ? 'node:zlib' : 'fzstd';

/**
 * The most window bytes fzstd may copy for one frame (its blocks times its window, or 64 times the output
 * allowed if more): fzstd moves its whole window at every block, so a frame of many tiny blocks under a
 * large window would cost time without bound. A 2 MiB window (zstd -3, streamed) costs 16 times
 * the output; 8 MiB (-19, streamed) 64 times.
 */
const MAX_JS_WORK = 2 ** 33;

/** Thrown from fzstd's output handler to stop it. */
const OVER = new ZstdDataError('', true);

/** The smallest window descriptor byte whose window is at least `bytes`. */
function descriptorFor(bytes: number): number {
  for (let d = 0; d < 256; d++) if (windowSizeOf(d) >= bytes) return d;
  return 255;
}

/**
 * `f`'s bytes of `data` for fzstd, under a header of its own: no content size (fzstd's streaming decoder uses
 * it only as a single segment's window; {@link inflateJs} checks it) and a window of what `room` bytes of
 * output can use, at least a block's 128 KiB. fzstd allocates the window a frame says, and sizes a block's
 * output buffer by it, silently dropping what a block writes past it; no match of a frame reaches further
 * back than the output it may write.
 */
function frameBytes(data: Uint8Array, f: ZstdFrame, window: number): Uint8Array {
  const body = data.subarray(f.headerEnd, f.end);
  const out = new Uint8Array(6 + body.length);
  out.set([0x28, 0xb5, 0x2f, 0xfd, data[f.start + 4]! & 4, descriptorFor(window)]);
  out.set(body, 6);
  return out;
}

/** `data` inflated by fzstd into at most `max` bytes. */
function inflateJs(data: Uint8Array, frames: readonly ZstdFrame[], max: number): Buffer {
  const out = Buffer.allocUnsafe(max);
  let written = 0;
  for (const f of frames) {
    const from = written;
    const d = new Decompress((chunk) => {
      if (chunk.length > max - written) throw OVER;
      out.set(chunk, written);
      written += chunk.length;
    });
    const window = Math.max(128 * 1024, Math.min(f.windowSize, max - written));
    if (f.blocks * window > Math.max(MAX_JS_WORK, 64 * max)) {
      throw new ZstdDataError(`has ${f.blocks} blocks under a window of ${window} bytes, more than fzstd (the JavaScript decoder used below Node.js 22.15) is given: fzstd copies its window at every block (Node.js 22.15 or later reads it)`);
    }
    d.push(frameBytes(data, f, window), true);
    if (f.contentSize !== null && written - from !== f.contentSize) {
      throw new ZstdDataError(`has a frame that says it holds ${f.contentSize} bytes but inflates to ${written - from} (corrupt data)`);
    }
    checkContent(data, f, out, from, written);
  }
  return out.subarray(0, written);
}

/** What a frame whose content checksum does not match is refused with, on either decoder. */
const BAD_CHECKSUM = 'has a frame whose content checksum (XXH64) does not match what it inflates to (corrupt data)';

/**
 * Checks frame `f`'s content checksum, when it has one (the frame header's flag): its last 4 bytes, little
 * endian, must be the low 32 bits of XXH64 (seed 0) of `out[from, to)`, what the frame inflated to.
 */
function checkContent(data: Uint8Array, f: ZstdFrame, out: Uint8Array, from: number, to: number): void {
  if ((data[f.start + 4]! & 4) === 0) return;
  const at = f.end - 4;
  const stored = (data[at]! | (data[at + 1]! << 8) | (data[at + 2]! << 16) | (data[at + 3]! << 24)) >>> 0;
  if (xxh64(out, from, to, 0, 0) >>> 0 !== stored) throw new ZstdDataError(BAD_CHECKSUM);
}

/**
 * `data`, Zstandard frames, inflated to at most `maxOutputLength` bytes; throws a {@link ZstdDataError}
 * saying why not (`over` when it would inflate further).
 */
export function inflateZstd(data: Uint8Array, maxOutputLength: number): Buffer {
  const frames = zstdFrames(data, maxOutputLength);
  try {
    if (typeof native === 'function') return native(data, { maxOutputLength });
    return inflateJs(data, frames, maxOutputLength);
  } catch (err) {
    if (err instanceof ZstdDataError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (typeof native === 'function' && (err instanceof RangeError || code === 'ERR_BUFFER_TOO_LARGE')) throw OVER;
    // libzstd checks the checksum itself ("Restored data doesn't match checksum"): the same refusal as fzstd's path
    if (typeof native === 'function' && err instanceof Error && /checksum/i.test(err.message)) throw new ZstdDataError(BAD_CHECKSUM);
    throw new ZstdDataError(`is corrupt (${err instanceof Error ? err.message : String(err)})`);
  }
}
