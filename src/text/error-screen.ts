/**
 * The twin of the engine module's screen of an error text (assembly/error-screen.ts, issue 29), and its
 * specification: whether the text's first {@link SAYS_LOOK} characters may hold one of error-reading.ts's
 * {@link MAY_SAY} words. The module answers it as it hashes the error for its key, and the outcome facts read
 * errorBits only of an error it lets through (error-reading.ts's readError).
 *
 * It says yes of every text MAY_SAY matches, and of a few more: MAY_SAY's `found\s+in` and `expected\s+lines`
 * are read with ASCII white space only, and say "maybe" wherever ASCII white space (or none) after `found` or
 * `expected` meets a character past ASCII (`\s` holds non-ASCII spaces too). Without the `u` flag, `i` folds
 * no character past ASCII to an ASCII letter, so the words are matched as the module matches bytes.
 */
import { SAYS_LOOK } from './error-reading.js';

/** MAY_SAY's words, its `\s` read as ASCII white space, or "maybe" at a character past ASCII (see above). */
export const ERROR_SCREEN =
  /want|denied|granted|approval|user|cancel|interrupted|aborted|sibling|auth|logged|required|please|exactly|your|parse|found(?:[\t-\r ]+in|[\t-\r ]*[^\0-\x7f])|regist|must|validation|input|received|unexpected|invalid|replace|expected(?:[\t-\r ]+lines|[\t-\r ]*[^\0-\x7f])|occurrences|verbatim/i;

/** Whether `error` may say something error-reading.ts reads (false: it holds none of MAY_SAY's words in its first SAYS_LOOK characters). */
export function errorMaySay(error: string): boolean {
  return ERROR_SCREEN.test(error.length > SAYS_LOOK ? error.slice(0, SAYS_LOOK) : error);
}
