/**
 * A pool's worker reads a batch's results as views of the batch's buffer (ByteReader.view), and the buffer
 * goes back to the calling thread after the batch: a result read after that must throw, never give a
 * wrong (empty) string.
 */
import { describe, expect, it } from 'vitest';
import { ByteReader } from '../src/snapshot/byte-reader.js';
import { ByteWriter } from '../src/snapshot/byte-writer.js';
import { RawJsonString } from '../src/wasm/raw-json-string.js';

describe('a result read as a view of its batch', () => {
  it('reads while the batch is here, and throws once its buffer went back', () => {
    const w = new ByteWriter(64);
    w.bytes(Buffer.from('"ok\\n"', 'latin1'));
    const { buffer, length } = w.take();
    const r = new ByteReader(new Uint8Array(buffer, 0, length));
    const raw = new RawJsonString(r.view(), true);
    expect(raw.value()).toBe('ok\n');
    const again = new RawJsonString(new ByteReader(new Uint8Array(buffer, 0, length)).view(), true);
    structuredClone(buffer, { transfer: [buffer] }); // as a batch's answer takes it back
    expect(() => again.literal).toThrow(/after its batch went back/);
    expect(() => again.value()).toThrow(/after its batch went back/);
    expect(() => again.content).toThrow(/after its batch went back/);
    // a value made before keeps being given
    expect(raw.value()).toBe('ok\n');
  });

  it('a view is the bytes in place, a copy is not', () => {
    const w = new ByteWriter(64);
    w.bytes(Buffer.from('abc'));
    w.bytes(Buffer.from('abc'));
    const { buffer, length } = w.take();
    const u8 = new Uint8Array(buffer, 0, length);
    const r = new ByteReader(u8);
    const view = r.view();
    const copy = r.bytes();
    u8.fill(0x7a);
    expect(Buffer.from(view).toString()).toBe('zzz');
    expect(Buffer.from(copy).toString()).toBe('abc');
  });
});
