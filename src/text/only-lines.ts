/**
 * The reading "an error says only X": every line of its head is a line saying X or a companion line of no
 * meaning of its own (a usage hint, an exit status), and at least one says X. What missing-program.ts (a
 * program not there) and port-taken.ts (a port or address taken) both read, each with its own lines.
 */
import { withoutColour } from './colour-codes.js';
import { withoutShellNoise } from './shell-noise.js';

/** The lines of one "says only" reading. */
export interface OnlyLinesReading {
  /** Characters of the error read (a text cut there: the part line at the cut is not read). */
  readonly look: number;
  /** Words every saying line holds, in any ASCII case: an error without them is not split into lines at all. */
  readonly screen: RegExp;
  /** A line saying X (at least one). */
  readonly says: readonly RegExp[];
  /** A line that may stand beside them. */
  readonly companions: readonly RegExp[];
  /** What is taken off each trimmed line's start before it is read (a log's time and level); none when absent. */
  readonly linePrefix?: RegExp;
}

/** A label Gemini CLI puts before a command's output. */
const OUTPUT_LABEL = /^Output: /;

/** Whether `error`'s head says only what `r`'s lines say (see the module's notes). */
export function saysOnly(error: string, r: OnlyLinesReading): boolean {
  const head = error.length > r.look ? error.slice(0, r.look) : error;
  // the colours taken out first: a line the patterns read is a part of this text, so it holds the screen's words
  const plain = withoutColour(head);
  if (!r.screen.test(plain)) return false;
  const lines = withoutShellNoise(plain.replace(OUTPUT_LABEL, '')).split('\n');
  // a text cut at `look` may end in part of a line: that part is not read
  if (error.length > r.look) lines.pop();
  let said = false;
  for (const raw of lines) {
    const trimmed = raw.trim();
    const line = r.linePrefix === undefined ? trimmed : trimmed.replace(r.linePrefix, '');
    if (line === '') continue;
    if (r.says.some((p) => p.test(line))) said = true;
    else if (!r.companions.some((p) => p.test(line))) return false;
  }
  return said;
}
