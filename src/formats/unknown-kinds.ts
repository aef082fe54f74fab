/**
 * Record kinds a reader does not know, said once per kind per input rather than dropped unseen. A harness
 * adds kinds (an OpenHands SDK event kind, an ATIF step `source` past the spec's three, a chat
 * `role` a later API adds): one of them may hold calls a reader of today would never read, so the person is
 * told which kind, where first met, and that it was passed over. Each reader keeps one {@link UnknownKinds}
 * per input (a reader is made per input); a note is no skip (the scan's exit code is unchanged) and the
 * scan's summary counts them (`unknownKinds`). Bounded: a kind is named by at most {@link MAX_KIND_CHARS}
 * characters, and at most {@link MAX_KINDS_SAID} kinds are remembered per input, past which one note says
 * the rest are not named.
 */
import type { TraceNote } from './trace-record.js';

/** Most kinds named per input; further ones are said together once. */
export const MAX_KINDS_SAID = 32;
/** Most characters of a kind's name kept in a note. */
export const MAX_KIND_CHARS = 80;

/** The kinds of one input's records that a reader does not know, each said once. */
export class UnknownKinds {
  private readonly said = new Set<string>();
  private full = false;

  /**
   * @param what How the format names the field, for the note: `OpenHands SDK event kind`, `ATIF step source`.
   */
  constructor(private readonly what: string) {}

  /** {@link note} when `kind` is not one of `known` (a string in the set), else null. */
  unless(known: ReadonlySet<string>, kind: unknown, file: string, line: number): TraceNote | null {
    return typeof kind === 'string' && known.has(kind) ? null : this.note(kind, file, line);
  }

  /** A note the first time `kind` is met in this input (at `file`, `line`), else null. */
  note(kind: unknown, file: string, line: number): TraceNote | null {
    const name = typeof kind === 'string' ? kind.slice(0, MAX_KIND_CHARS) : kind === undefined ? '(none)' : `(${kind === null ? 'null' : typeof kind})`;
    if (this.said.has(name) || this.full) return null;
    if (this.said.size >= MAX_KINDS_SAID) {
      this.full = true;
      return { kind: 'note', file, line, message: `passed over: more than ${MAX_KINDS_SAID} kinds of ${this.what} loopwatch does not know in this input; the rest are not named`, unknownKinds: 1 };
    }
    this.said.add(name);
    const shown = typeof kind === 'string' ? JSON.stringify(name) + (kind.length > MAX_KIND_CHARS ? '...' : '') : name;
    return { kind: 'note', file, line, message: `passed over: ${this.what} ${shown}, which loopwatch does not know (said once for this input); calls it may hold are not read`, unknownKinds: 1 };
  }
}
