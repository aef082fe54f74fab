/**
 * Output that only reports the files a script wrote: a plot or report generator printing
 * `Saved: 111_R_compare_final.png` for each figure, `Figure saved to out/loss.png`, `Wrote report.html`.
 * What such a script makes is in those files, not in what it prints: run again after an edit, it prints the
 * same names while the figures changed. Its answer is a report of the state it left (as a status query's
 * is: status-query.ts), not a behaviour the edits were to change, so the evidence screen weighs it as it
 * weighs a check that passed (src/policy/evidence-screen.ts's reportsState). Every line that says anything
 * must be such a report: a metric or a message printed beside them is the script's behaviour. Reads at most
 * {@link SAVED_LOOK} characters.
 */

/** Characters of an output read at most. */
export const SAVED_LOOK = 4096;

/** Characters of a line that reports a file at most (a longer line is something else: never matched). */
const MAX_LINE = 512;

/** Lines read at most (a generator saving many files is still one when its first lines all say so). */
const MAX_LINES = 64;

/**
 * A line saying a file was written: `Saved: x.png`, `Saved x.png`, `Wrote x.html`, `Exported: x.csv`, or a
 * subject first, `Figure saved to x.png`, `Plot saved as x.pdf`, `All comparisons saved to:` (the folder on
 * the next line).
 */
const SAVED_LINE =
  /^\s*(?:(?:[\w-]+\s+){0,3}(?:saved|written|exported|generated|created)\s+(?:to|as|at|in|into)\s*:?(?:\s*\S+)?|(?:saved|wrote|written|exported|generated|created)\s*:?\s+['"`]?[^\s'"`]*\.[A-Za-z0-9]{1,5}['"`]?)\s*\.?\s*$/i;

/** A path alone on its line (`  /home/me/results/figures`, `./out/a.png`): where the files went. */
const PATH_LINE = /^\s*['"`]?[^\s'"`]*[\/\\][^\s'"`]*['"`]?\s*$/;

/**
 * Whether every line of an output that says anything reports a file written (at least one line) or names
 * where they went (a path alone).
 */
export function reportsSavedFiles(text: string): boolean {
  // a text cut at SAVED_LOOK (or given cut there) ends in a part of a line: it is not read
  const t = text.length >= SAVED_LOOK ? text.slice(0, text.lastIndexOf('\n', SAVED_LOOK - 1) + 1) : text;
  let saved = 0;
  let lines = 0;
  // line by line, without splitting: most outputs fail at their first line (a long one at once)
  for (let at = 0; at < t.length && lines < MAX_LINES; ) {
    const end = t.indexOf('\n', at);
    const line = t.slice(at, end < 0 ? t.length : end);
    at = end < 0 ? t.length : end + 1;
    if (line.trim() === '') continue;
    if (line.length > MAX_LINE) return false;
    lines++;
    if (SAVED_LINE.test(line)) saved++;
    // a path alone holds a slash: a line without one is not asked (most outputs end here, at their first line)
    else if (!hasSlash(line) || !PATH_LINE.test(line)) return false;
  }
  return saved > 0;
}

/** Whether a line holds `/` or `\\` (PATH_LINE cannot match one that holds neither). */
function hasSlash(line: string): boolean {
  return line.includes('/') || line.includes('\\');
}
