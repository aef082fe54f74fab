/**
 * Writes args into a byte buffer in the module's value encoding (see `encode-value.ts`), when the
 * encoding says them exactly: JSON data (null, booleans, numbers, well-formed strings, arrays, plain
 * objects). A pool's calling thread sends args this way (a worker copies the bytes into its record instead
 * of rebuilding and walking objects), and a snapshot keeps similar args' recent args this way (read back
 * as the same JSON data, their fingerprints computed again only if a comparison needs one).
 */
import type { ByteWriter, InPlaceFiller } from '../snapshot/byte-writer.js';
import { ValueEncoder } from './encode-value.js';

/** Encodes args as JSON data in the module's encoding, or says they cannot go so. */
export class ArgsEncoder implements InPlaceFiller {
  private readonly enc = new ValueEncoder();
  private pending: unknown = undefined;

  /**
   * `tag`: the byte written before the encoded bytes' length. `maxDepth`: the configuration's depth cap.
   * `unfiltered(tool)`: no field of the tool's args is ignored (ignored fields are left out of the
   * encoding, and the args object must come back whole).
   */
  constructor(
    private readonly tag: number,
    private readonly maxDepth: number,
    private readonly unfiltered: (tool: string) => boolean,
  ) {
    this.enc.trackLoss = true;
    // args larger than the writer's room are walked whole all the same and their size counted, so the
    // writer grows once to hold them (ByteWriter.inPlace), not double and walk them again until they fit
    this.enc.counting = true;
  }

  /**
   * Writes `tag`, then `args` encoded with their length, and returns true; writes nothing and returns false
   * when they cannot go so (not an object, an ignored field, or not JSON data).
   */
  write(w: ByteWriter, tool: string, args: unknown): boolean {
    if (typeof args !== 'object' || args === null || !this.unfiltered(tool)) return false;
    const mark = w.length;
    w.u8(this.tag);
    const lengthAt = w.length;
    w.u32(0);
    this.pending = args;
    try {
      w.inPlace(this);
    } catch {
      // cannot happen (the encoder turns throwing getters into a marker), but a failure here must not lose the call
      this.enc.lossy = true;
    } finally {
      this.pending = undefined;
    }
    if (this.enc.lossy) {
      w.length = mark;
      return false;
    }
    w.patchU32(lengthAt, w.length - lengthAt - 4);
    return true;
  }

  /** @internal ByteWriter.inPlace's side: the encoding's size, counted past `end` when it does not fit. */
  fill(u8: Uint8Array, dv: DataView, start: number, end: number): number {
    this.enc.reset(u8, dv, start, end);
    this.enc.value(this.pending, null, this.maxDepth);
    return this.enc.position - start;
  }
}
