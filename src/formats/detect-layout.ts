/**
 * How an input's JSON is laid out, judged from its head: `lines` (JSON Lines: one record per line, a broken
 * line spoils only itself) or `json` (JSON text spanning lines: a pretty-printed document, a JSON array of
 * records, or one line too long to look at whole, split by the streaming splitter).
 */
import { parseJson } from './json-value.js';

/** How the records of an input are laid out. */
export type Layout = 'lines' | 'json';

/** Names of SWE-agent trajectory files: always one JSON document. */
export const TRAJ_FILE = /\.traj(\.gz)?$/i;

const lenient = new TextDecoder('utf-8');

/**
 * The layout of an input from its first bytes (`complete` when they are the whole input):
 * `.traj` files are `json`; an input whose first non-blank line is a whole JSON value is `lines`, and so is
 * one with a later line at column 0 that is (its first line is then just broken); otherwise an input
 * opening with `[` or `{` is `json`, and anything else `lines` (each line then reported as what it is).
 */
export function detectLayout(head: Uint8Array, complete: boolean, file: string): Layout {
  if (TRAJ_FILE.test(file)) return 'json';
  const lines = lenient.decode(head).replace(/^\uFEFF/, '').split('\n');
  const last = complete ? lines.length : lines.length - 1; // the last piece of an incomplete head is cut
  let k = 0;
  while (k < lines.length && lines[k]!.trim() === '') k++;
  if (k >= lines.length) return 'lines';
  const first = lines[k]!.trim();
  if (k >= last) return first.startsWith('[') ? 'json' : 'lines';
  if (parseJson(first).ok) return 'lines';
  for (let j = k + 1; j < last; j++) {
    const l = lines[j]!;
    if ((l.startsWith('{') || l.startsWith('[')) && parseJson(l.trim()).ok) return 'lines';
  }
  return first.startsWith('[') || first.startsWith('{') ? 'json' : 'lines';
}
