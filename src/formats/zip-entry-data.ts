/**
 * One zip entry's bytes, read bounded: stored, deflate or Zstandard (zstd-inflate.ts: node:zlib's decoder
 * where this Node.js has it, else a pure JavaScript one), nothing encrypted. Before anything is inflated the directory's sizes are checked against the limits (the
 * entry's size, and its compression ratio past {@link RATIO_FLOOR_BYTES}); inflating stops at the size the
 * directory says (zlib's `maxOutputLength`, or zstd-inflate.ts's own bound), so a stream that would inflate further is refused, not held;
 * the local header must agree with the directory and the data end before the next entry; the CRC-32 is
 * checked. Every refusal is a {@link ZipEntryError} saying why in words.
 */
import * as zlib from 'node:zlib';
import type { ZipEntry, ZipSource } from './zip-directory.js';
import { overInflateRatio } from './inflate-ratio.js';
import { ZstdDataError } from './zstd-frames.js';
import { inflateZstd } from './zstd-inflate.js';

/** Why an entry was not read. `tooLarge`: over the size limit (the caller may call it too long, as a line would be). */
export class ZipEntryError extends Error {
  constructor(message: string, readonly tooLarge: boolean = false) {
    super(message);
    this.name = 'ZipEntryError';
  }
}

/** How much an entry may hold. */
export interface ZipEntryLimits {
  /** Largest entry once inflated, in bytes. */
  readonly maxEntryBytes: number;
  /** Highest inflated : compressed ratio of an entry inflating past {@link RATIO_FLOOR_BYTES} (inflate-ratio.ts's rule, `inflateRatioCap()`). */
  readonly maxRatio: number;
}

/** Entries inflating to at most this many bytes are never refused for their ratio (an entry's sizes are known before it is inflated: judged whole, so a floor smaller than a stream's). */
export const RATIO_FLOOR_BYTES = 1024 * 1024;

const LOCAL = 0x04034b50;
const STORED = 0;
const DEFLATE = 8;
const ZSTD = 93;

type Inflate = (data: Buffer, options: { maxOutputLength: number }) => Buffer;

let table: Uint32Array | null = null;

/** The CRC-32 of `b` (zlib's where this Node.js has it). */
export function crc32(b: Uint8Array): number {
  const native = (zlib as unknown as { crc32?: (d: Uint8Array) => number }).crc32;
  if (typeof native === 'function') return native(b) >>> 0;
  if (table === null) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < b.length; i++) c = table[(c ^ b[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** What the method is called, in a message. */
function methodName(method: number): string {
  return method === ZSTD ? 'Zstandard (method 93)' : `compression method ${method}`;
}

/** How to inflate `e`'s data, or why it cannot be. */
function inflaterOf(e: ZipEntry): Inflate | null {
  if (e.method === STORED) return null;
  if (e.method === DEFLATE) return zlib.inflateRawSync as Inflate;
  if (e.method === ZSTD) return (data, options) => inflateZstd(data, options.maxOutputLength);
  throw new ZipEntryError(`compressed with ${methodName(e.method)} (only stored, deflate and Zstandard are read)`);
}

/** Checks `e`'s directory fields against the limits, before reading anything. */
function checkListed(e: ZipEntry, limits: ZipEntryLimits): void {
  if (e.problem !== null) throw new ZipEntryError(e.problem);
  if ((e.flags & 0x41) !== 0) throw new ZipEntryError('encrypted, which is not read');
  if (e.size > limits.maxEntryBytes) throw new ZipEntryError(`inflates to ${e.size} bytes, over the limit of ${limits.maxEntryBytes} (--max-line-bytes)`, true);
  if (overInflateRatio(e.compressedSize, e.size, limits.maxRatio, RATIO_FLOOR_BYTES)) {
    throw new ZipEntryError(`inflates ${e.compressedSize} bytes to ${e.size}, a ratio over ${limits.maxRatio}:1 (a zip bomb?)`);
  }
  if (e.method === STORED && e.compressedSize !== e.size) throw new ZipEntryError(`stored, but its directory entry says ${e.compressedSize} bytes stored for ${e.size}`);
}

/** Where `e`'s data starts, from its local header (which must agree with the directory). */
function dataStart(src: ZipSource, e: ZipEntry): number {
  const h = src.read(e.offset, 30);
  if (h.length < 30 || h.readUInt32LE(0) !== LOCAL) throw new ZipEntryError(`no local header at offset ${e.offset} (a truncated or malformed archive)`);
  if (h.readUInt16LE(26) !== e.nameLength) throw new ZipEntryError('its local header names another entry (a malformed archive)');
  const start = e.offset + 30 + e.nameLength + h.readUInt16LE(28);
  if (start + e.compressedSize > e.limit) throw new ZipEntryError('its data overlaps the next entry or the central directory (a malformed archive or a zip bomb)');
  if (start + e.compressedSize > src.size) throw new ZipEntryError('its data runs past the end of the file (a truncated archive)');
  return start;
}

/** The inflated bytes of `e`, an entry of `src`; throws a {@link ZipEntryError} saying why not. */
export function readZipEntry(src: ZipSource, e: ZipEntry, limits: ZipEntryLimits): Buffer {
  checkListed(e, limits);
  const inflate = inflaterOf(e);
  const data = src.read(dataStart(src, e), e.compressedSize);
  if (data.length < e.compressedSize) throw new ZipEntryError('its data runs past the end of the file (a truncated archive)');
  let out: Buffer;
  if (inflate === null) out = data;
  else {
    try {
      out = inflate(data, { maxOutputLength: Math.max(1, e.size) });
    } catch (err) {
      if (err instanceof ZstdDataError) throw new ZipEntryError(err.over ? `inflates past the ${e.size} bytes its directory entry says (a zip bomb?)` : `its ${methodName(e.method)} data ${err.message}`);
      const code = (err as NodeJS.ErrnoException).code;
      if (err instanceof RangeError || code === 'ERR_BUFFER_TOO_LARGE') throw new ZipEntryError(`inflates past the ${e.size} bytes its directory entry says (a zip bomb?)`);
      throw new ZipEntryError(`its ${methodName(e.method)} data is corrupt (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  if (out.length !== e.size) throw new ZipEntryError(`inflates to ${out.length} bytes, its directory entry says ${e.size} (a corrupt or truncated entry)`);
  if (crc32(out) !== e.crc) throw new ZipEntryError('its CRC-32 does not match (a corrupt entry)');
  return out;
}
