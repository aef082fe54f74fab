/**
 * Zip archives built in tests, well formed or hostile on purpose: each entry stored or deflated, with its
 * CRC, sizes, method, flags or local header offset overridden at will; a ZIP64 end record; data descriptors.
 */
import * as zlib from 'node:zlib';
import { crc32, deflateRawSync } from 'node:zlib';

/** Zstandard compression, where this Node.js's zlib has it (22.15 and later). */
const zstd = (zlib as unknown as { zstdCompressSync?: (b: Buffer) => Buffer }).zstdCompressSync;

/** One entry to write. */
export interface ZipSpec {
  readonly name: string;
  readonly data: Buffer | string;
  /** 0 stored, 8 deflate (the default), 93 Zstandard (where zlib has it), or any other number written as is (the data then stored). */
  readonly method?: number;
  /** The entry's data as written (compressed already, e.g. a Zstandard fixture), in place of compressing `data`. */
  readonly body?: Buffer;
  readonly flags?: number;
  /** Overrides of what the central directory says. */
  readonly crc?: number;
  readonly size?: number;
  /** Point the directory entry at an earlier entry's local header (by index): entries that overlap. */
  readonly sameOffsetAs?: number;
  /** Write a data descriptor after the data, and zeros in the local header's CRC and sizes (flag bit 3). */
  readonly descriptor?: boolean;
}

/** A zip archive of `specs`; `zip64` writes ZIP64 end records (the classic one deferring to them). */
export function buildZip(specs: readonly ZipSpec[], options: { zip64?: boolean } = {}): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  const offsets: number[] = [];
  let at = 0;
  for (const s of specs) {
    const raw = Buffer.isBuffer(s.data) ? s.data : Buffer.from(s.data);
    const method = s.method ?? 8;
    const body = s.body !== undefined ? s.body : method === 8 ? deflateRawSync(raw) : method === 93 && typeof zstd === 'function' ? zstd(raw) : raw;
    const name = Buffer.from(s.name);
    const crc = s.crc ?? crc32(raw);
    const size = s.size ?? raw.length;
    const flags = (s.flags ?? 0x800) | (s.descriptor === true ? 8 : 0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    if (s.descriptor !== true) {
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(body.length, 18);
      local.writeUInt32LE(size, 22);
    }
    local.writeUInt16LE(name.length, 26);
    const offset = s.sameOffsetAs === undefined ? at : offsets[s.sameOffsetAs]!;
    offsets.push(offset);
    if (s.sameOffsetAs === undefined) {
      const descriptor = Buffer.alloc(s.descriptor === true ? 16 : 0);
      if (s.descriptor === true) {
        descriptor.writeUInt32LE(0x08074b50, 0);
        descriptor.writeUInt32LE(crc, 4);
        descriptor.writeUInt32LE(body.length, 8);
        descriptor.writeUInt32LE(size, 12);
      }
      locals.push(local, name, body, descriptor);
      at += 30 + name.length + body.length + descriptor.length;
    }
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(flags, 8);
    c.writeUInt16LE(method, 10);
    c.writeUInt32LE(crc, 16);
    c.writeUInt32LE(body.length, 20);
    c.writeUInt32LE(size, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(offset, 42);
    central.push(c, name);
  }
  const dir = Buffer.concat(central);
  const tail: Buffer[] = [];
  const count = specs.length;
  if (options.zip64 === true) {
    const rec = Buffer.alloc(56);
    rec.writeUInt32LE(0x06064b50, 0);
    rec.writeBigUInt64LE(44n, 4);
    rec.writeUInt16LE(45, 12);
    rec.writeUInt16LE(45, 14);
    rec.writeBigUInt64LE(BigInt(count), 24);
    rec.writeBigUInt64LE(BigInt(count), 32);
    rec.writeBigUInt64LE(BigInt(dir.length), 40);
    rec.writeBigUInt64LE(BigInt(at), 48);
    const loc = Buffer.alloc(20);
    loc.writeUInt32LE(0x07064b50, 0);
    loc.writeBigUInt64LE(BigInt(at + dir.length), 8);
    loc.writeUInt32LE(1, 16);
    tail.push(rec, loc);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(options.zip64 === true ? 0xffff : count & 0xffff, 8);
  end.writeUInt16LE(options.zip64 === true ? 0xffff : count & 0xffff, 10);
  end.writeUInt32LE(options.zip64 === true ? 0xffffffff : dir.length, 12);
  end.writeUInt32LE(options.zip64 === true ? 0xffffffff : at, 16);
  return Buffer.concat([...locals, dir, ...tail, end]);
}
