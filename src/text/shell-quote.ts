/**
 * A word quoted for a POSIX shell, for the commands loopwatch prints for a person to paste (install, trust,
 * calibrate's recorded command line, the report's `loopwatch explain`). Pure: the report's page script
 * bundles it too.
 */

/** `s` as one POSIX shell word: as it is when every character is plain, else in single quotes (a `'` as `'\''`). */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_/.,:=+@%-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
