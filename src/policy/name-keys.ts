/**
 * The key of a name the outcome facts keep for a call (outcome-facts.ts's target): the path of the file a
 * change names, or the program a failed shell command ran (command-program.ts's programKey). Remembered by
 * name: names are short and an agent edits the same few files and runs the same few programs again and again
 * (4,042 changes of the traces name 810 files), so the TypeScript xxh64 (canonical-hash.ts's hashString,
 * which emulates 64-bit words: 1.5 us a path on the traces) runs once per distinct name, and a short string
 * as a Map's key costs V8 a hash of its characters (0.18 us a path, the lookup included). Names longer than
 * {@link NAME_KEY_LOOK} are hashed every time; at most {@link NAME_KEYS} names are kept (past that the
 * memo starts again empty).
 */
import { hashString } from '../fingerprint/canonical-hash.js';

/** Longest name remembered, in characters. */
export const NAME_KEY_LOOK = 256;
/** Names remembered at most. */
export const NAME_KEYS = 4096;

const keys = new Map<string, number>();

/** The key of a name: `hashString(name) >>> 0 || 1` (never 0: 0 says none), remembered for a short name. */
export function nameKey(name: string): number {
  if (name.length > NAME_KEY_LOOK) return hashString(name) >>> 0 || 1;
  let k = keys.get(name);
  if (k === undefined) {
    if (keys.size >= NAME_KEYS) keys.clear();
    k = hashString(name) >>> 0 || 1;
    // a name cut from a longer text (a patch's file line) may be a view of all of it: kept as a copy, made flat then cut
    keys.set(`${name} `.slice(0, -1), k);
  }
  return k;
}

/** Names remembered now (at most NAME_KEYS). */
export function nameKeyCount(): number {
  return keys.size;
}
