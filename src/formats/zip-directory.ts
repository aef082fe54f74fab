/**
 * The central directory of a zip archive, read bounded and checked before any entry is inflated: the end
 * record is looked for only in the archive's last 65,557 bytes, ZIP64 end records and extra fields are read
 * (counts, sizes and offsets past 32 bits), multi-disk archives are refused, and the directory itself is at
 * most {@link MAX_DIRECTORY_BYTES}. Each entry's stored data must lie between its local header and the next
 * entry's (or the directory): entries that overlap (the shape of a non-recursive zip bomb, many entries
 * sharing one stream) are marked, not read. Entry names are never used as paths: a name that would climb out
 * of a folder (`..`, absolute, backslashes, control characters) is marked too.
 */

/** An archive-level fault: the archive cannot be read at all. */
export class ZipFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipFormatError';
  }
}

/** Where an archive's bytes come from: its size, and reads at a position. */
export interface ZipSource {
  readonly size: number;
  /** `length` bytes from `position` (fewer only past the end). */
  read(position: number, length: number): Buffer;
}

/** One entry of the central directory. */
export interface ZipEntry {
  /** The entry's name as written (UTF-8), only ever compared, never used as a path. */
  readonly name: string;
  /** The name's length in bytes. */
  readonly nameLength: number;
  /** 0-based position in the central directory. */
  readonly index: number;
  readonly flags: number;
  /** Compression method: 0 stored, 8 deflate, 93 Zstandard, ... */
  readonly method: number;
  readonly crc: number;
  readonly compressedSize: number;
  /** Size once inflated, as the directory says. */
  readonly size: number;
  /** Offset of the local header. */
  readonly offset: number;
  /** The offset the entry's data must end by: the next entry's local header, or the directory. */
  readonly limit: number;
  /** Why the entry is not read (null when it may be). */
  readonly problem: string | null;
}

/** The most entries an archive may list. */
export const MAX_ZIP_ENTRIES = 50_000;
/** The largest central directory read, in bytes. */
export const MAX_DIRECTORY_BYTES = 64 * 1024 * 1024;

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL_HEADER_BYTES = 30;
const U16 = 0xffff;
const U32 = 0xffffffff;
const utf8 = new TextDecoder('utf-8');

/** The end record: where the directory is and how many entries it lists. */
interface DirectoryEnd {
  readonly count: number;
  readonly size: number;
  readonly offset: number;
  /** Where the end records start: the directory must end by here. */
  readonly at: number;
}

/** A 64-bit little-endian field as a number, refused past 2^53. */
function u64(b: Buffer, at: number, what: string): number {
  const v = b.readBigUInt64LE(at);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipFormatError(`${what} is too large (${v})`);
  return Number(v);
}

/** The end of central directory record (ZIP64's when the classic one defers to it). */
function directoryEnd(src: ZipSource): DirectoryEnd {
  const tailLength = Math.min(src.size, 22 + U16);
  const tail = src.read(src.size - tailLength, tailLength);
  let at = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD && i + 22 + tail.readUInt16LE(i + 20) === tail.length) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new ZipFormatError('no end of central directory record at the end of the file (a truncated archive, or not a zip archive)');
  const pos = src.size - tailLength + at;
  if (tail.readUInt16LE(at + 4) !== 0 || tail.readUInt16LE(at + 6) !== 0) throw new ZipFormatError('a multi-disk (split) archive, which is not read');
  const count = tail.readUInt16LE(at + 10);
  const size = tail.readUInt32LE(at + 12);
  const offset = tail.readUInt32LE(at + 16);
  if (count !== U16 && size !== U32 && offset !== U32) return { count, size, offset, at: pos };
  // ZIP64: a locator just before the classic record points at the 64-bit end record
  if (pos < 20) throw new ZipFormatError('a ZIP64 archive without its ZIP64 end record locator (truncated?)');
  const loc = src.read(pos - 20, 20);
  if (loc.readUInt32LE(0) !== EOCD64_LOCATOR) throw new ZipFormatError('a ZIP64 archive without its ZIP64 end record locator (truncated?)');
  const at64 = u64(loc, 8, 'the ZIP64 end record offset');
  if (at64 + 56 > pos - 20) throw new ZipFormatError('the ZIP64 end record lies outside the archive');
  const rec = src.read(at64, 56);
  if (rec.readUInt32LE(0) !== EOCD64) throw new ZipFormatError('no ZIP64 end record where its locator points');
  if (rec.readUInt32LE(16) !== 0 || rec.readUInt32LE(20) !== 0) throw new ZipFormatError('a multi-disk (split) archive, which is not read');
  return { count: u64(rec, 32, 'the entry count'), size: u64(rec, 40, 'the central directory size'), offset: u64(rec, 48, 'the central directory offset'), at: at64 };
}

/** Why `name` is not a plain relative name (null when it is). */
export function badEntryName(name: string): string | null {
  if (name === '') return 'an empty name';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'a name with control characters';
  if (name.includes('\\')) return 'a name with backslashes';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'an absolute name';
  if (name.split('/').includes('..')) return 'a name that climbs out of its folder (..)';
  return null;
}

/** The ZIP64 extra field's values for the classic fields that defer to it. */
function zip64Values(extra: Buffer, need: { size: boolean; compressed: boolean; offset: boolean }): { size?: number; compressed?: number; offset?: number } | null {
  for (let p = 0; p + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(p);
    const len = extra.readUInt16LE(p + 2);
    if (p + 4 + len > extra.length) return null;
    if (id === 0x0001) {
      let q = p + 4;
      const out: { size?: number; compressed?: number; offset?: number } = {};
      const take = (): number | null => (q + 8 <= p + 4 + len ? u64(extra, (q += 8) - 8, 'a ZIP64 field') : null);
      if (need.size && (out.size = take() ?? -1) < 0) return null;
      if (need.compressed && (out.compressed = take() ?? -1) < 0) return null;
      if (need.offset && (out.offset = take() ?? -1) < 0) return null;
      return out;
    }
    p += 4 + len;
  }
  return null;
}

/** An entry as the directory lists it, before its bounds are known. */
type Listed = Omit<ZipEntry, 'limit' | 'problem'> & { problem: string | null };

/** The entries listed at `b` (the whole directory), checked against the end record's count. */
function listEntries(b: Buffer, count: number): Listed[] {
  const out: Listed[] = [];
  let p = 0;
  while (p < b.length) {
    if (out.length >= count) throw new ZipFormatError(`the central directory holds more entries than the ${count} its end record says`);
    if (p + 46 > b.length || b.readUInt32LE(p) !== CENTRAL) throw new ZipFormatError(`central directory entry ${out.length + 1} is cut or malformed`);
    const nameLength = b.readUInt16LE(p + 28);
    const extraLength = b.readUInt16LE(p + 30);
    const next = p + 46 + nameLength + extraLength + b.readUInt16LE(p + 32);
    if (next > b.length) throw new ZipFormatError(`central directory entry ${out.length + 1} runs past the directory`);
    const name = utf8.decode(b.subarray(p + 46, p + 46 + nameLength));
    let size = b.readUInt32LE(p + 24);
    let compressedSize = b.readUInt32LE(p + 20);
    let offset = b.readUInt32LE(p + 42);
    let problem = badEntryName(name);
    if (size === U32 || compressedSize === U32 || offset === U32) {
      const z = zip64Values(b.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength), { size: size === U32, compressed: compressedSize === U32, offset: offset === U32 });
      if (z === null) problem ??= 'ZIP64 sizes without a ZIP64 extra field holding them';
      else ({ size = size, compressed: compressedSize = compressedSize, offset = offset } = z);
    }
    if (b.readUInt16LE(p + 34) !== 0 && b.readUInt16LE(p + 34) !== U16) problem ??= 'an entry on another disk';
    out.push({ name, nameLength, index: out.length, flags: b.readUInt16LE(p + 8), method: b.readUInt16LE(p + 10), crc: b.readUInt32LE(p + 16), compressedSize, size, offset, problem });
    p = next;
  }
  if (out.length !== count) throw new ZipFormatError(`the central directory holds ${out.length} entries, its end record says ${count} (truncated?)`);
  return out;
}

/**
 * The entries of the archive `src`, in directory order, each with the offset its data must end by and why
 * it is not to be read, if so. Throws a {@link ZipFormatError} when the archive cannot be read at all: no end
 * record, a split archive, a directory out of bounds, cut, too large, or listing more than `maxEntries`.
 */
export function readZipDirectory(src: ZipSource, maxEntries: number = MAX_ZIP_ENTRIES): ZipEntry[] {
  const end = directoryEnd(src);
  if (end.count > maxEntries) throw new ZipFormatError(`the archive lists ${end.count} entries, over the limit of ${maxEntries}`);
  if (end.size > MAX_DIRECTORY_BYTES) throw new ZipFormatError(`a central directory of ${end.size} bytes, over the limit of ${MAX_DIRECTORY_BYTES}`);
  if (end.offset + end.size > end.at) throw new ZipFormatError('the central directory lies outside the archive (truncated, or bytes were prepended)');
  const listed = listEntries(src.read(end.offset, end.size), end.count);
  // each entry's data ends by the next local header (in file order) or the directory
  const order = listed.map((_, i) => i).sort((a, b) => listed[a]!.offset - listed[b]!.offset || a - b);
  const limits = new Array<number>(listed.length);
  const overlaps = new Array<string | null>(listed.length).fill(null);
  for (let k = 0; k < order.length; k++) {
    const e = listed[order[k]!]!;
    const nextAt = k + 1 < order.length ? listed[order[k + 1]!]!.offset : end.offset;
    limits[e.index] = nextAt;
    const least = e.offset + LOCAL_HEADER_BYTES + e.nameLength + e.compressedSize;
    if (least > nextAt) overlaps[e.index] = k + 1 < order.length ? `its data overlaps entry ${JSON.stringify(listed[order[k + 1]!]!.name)} (a malformed archive or a zip bomb)` : 'its data runs into the central directory (a malformed archive)';
  }
  return listed.map((e) => ({ ...e, limit: limits[e.index]!, problem: e.problem ?? overlaps[e.index]! }));
}
