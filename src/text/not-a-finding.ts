/**
 * Phrases of nothing-found.ts that, where they stand, report no search that came back empty:
 *
 * - a package runner's notice that it will fetch what it runs: npm's "npm warn exec The following package
 *   was not found and will be installed: create-next-app@16.1.1" heads the output of every `npx` of a
 *   package not yet cached, whatever the command then does (`not found` followed by
 *   {@link INSTALL_NOTICE});
 * - a shell saying the program a command names is not there: bash's "/bin/bash: line 1: pnpm: command not
 *   found", zsh's "zsh: command not found: pnpm" (`not found` after the word {@link PROGRAM_WORD} and spaces).
 *   The command never ran: it is a failure of that program (the same program missing again is still a dead
 *   end, by its error's class), not a search that came back empty to be joined to every other "not found";
 * - a wrong name in the agent's own code or query: PostgreSQL's `column "email" does not exist`, `relation
 *   "identities" does not exist`, `type "auth.factor_type" does not exist`, `operator does not exist: uuid =
 *   text`, TypeScript's `Property 'user_login' does not exist on type 'UserData'` (`does not exist` or
 *   `doesn't exist` after one of {@link NAME_KINDS} and one name, or right after `operator`), and
 *   TypeScript's "Object literal may only specify known properties, and 'test' does not exist in type
 *   'UserConfigExport'" (the phrase followed by one of {@link ON_A_TYPE}), and Solidity's `Member "decrypt"
 *   not found or not visible after argument-dependent lookup in type(library FHE)` (`not found` after the
 *   word {@link MEMBER_WORD}, spaces, one name, spaces). Such an error
 *   is the agent's mistake, not the world's answer: it counts as a struggle when the same mistake comes back
 *   (the dead end's class of the error text), not as one more "found nothing" joined to unrelated failures;
 * - a test run whose collection failed: pytest's "collected 0 items / 6 errors" (`0 items`, then
 *   {@link COLLECTION_ERRORS}, digits and {@link ERROR_WORD}) found no tests because its modules did not import.
 *
 * Read over UTF-8 bytes, ASCII-lowercased as they are read (assembly/not-a-finding.ts is the twin): the
 * notice within the text's `len` bytes, the name and its kind before the phrase (each gap one or more
 * spaces, the name a run of bytes that are not white space, the kind a whole word).
 */

/** What follows `not found` in a package runner's notice that it will install a package. */
export const INSTALL_NOTICE = ' and will be installed';

/** The word before `not found` in a shell's report that a command's program is not there (`command not found`). */
export const PROGRAM_WORD = 'command';

/** The word naming a member before `<name> not found` in a compiler's report of a wrong member (Solidity). */
export const MEMBER_WORD = 'member';

/** What follows `does not exist` in a compiler's report of a member a type does not have (TypeScript). */
export const ON_A_TYPE: readonly string[] = Object.freeze([' on type ', ' in type ']);

/** What follows `0 items` in pytest's count of modules that failed to import ("collected 0 items / 6 errors"). */
export const COLLECTION_ERRORS = ' / ';

/** The word after COLLECTION_ERRORS' count (`error` or `errors`). */
export const ERROR_WORD = ' error';

/** Words naming what a wrong name was taken for, before `<name> does not exist` (lowercase ASCII). */
export const NAME_KINDS: readonly string[] = Object.freeze([
  'column', 'relation', 'table', 'schema', 'function', 'type', 'role', 'database', 'constraint', 'sequence',
  'extension', 'property',
]);

/** The word that stands right before `does not exist` with no name between (`operator does not exist: a = b`). */
export const BARE_KIND = 'operator';

const ascii = new TextEncoder();
const NOTICE = ascii.encode(INSTALL_NOTICE);
const KINDS = NAME_KINDS.map((w) => ascii.encode(w));
const BARE = ascii.encode(BARE_KIND);
const PROGRAM = ascii.encode(PROGRAM_WORD);
const MEMBER = ascii.encode(MEMBER_WORD);
const TYPE_AFTER = ON_A_TYPE.map((w) => ascii.encode(w));
const SLASH = ascii.encode(COLLECTION_ERRORS);
const ERROR = ascii.encode(ERROR_WORD);

function lower(b: number): number {
  return b >= 0x41 && b <= 0x5a ? b + 32 : b;
}

function isSpace(b: number): boolean {
  return b === 0x20 || (b >= 0x09 && b <= 0x0d);
}

function isAlnum(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7a);
}

/** Whether the whole word `w` (lowercase) ends at `end` of `bytes`. */
function wordEndsAt(bytes: Uint8Array, end: number, w: Uint8Array): boolean {
  const start = end - w.length;
  if (start < 0 || (start > 0 && isAlnum(lower(bytes[start - 1] as number)))) return false;
  for (let k = 0; k < w.length; k++) if (lower(bytes[start + k] as number) !== w[k]) return false;
  return true;
}

/** Where the run of spaces ending at `end` begins (`end` itself when there is none). */
function spacesBefore(bytes: Uint8Array, end: number): number {
  let j = end;
  while (j > 0 && bytes[j - 1] === 0x20) j--;
  return j;
}

/** Whether `w` (lowercase) stands at `from` of text `bytes[0, len)`. */
function startsAt(bytes: Uint8Array, len: number, from: number, w: Uint8Array): boolean {
  if (from + w.length > len) return false;
  for (let k = 0; k < w.length; k++) if (lower(bytes[from + k] as number) !== w[k]) return false;
  return true;
}

/**
 * Whether `not found`, ending at `end` of text `bytes[0, len)`, is followed by {@link INSTALL_NOTICE} (a
 * package runner's notice: nothing was searched for).
 */
export function installNoticeAt(bytes: Uint8Array, len: number, end: number): boolean {
  return startsAt(bytes, len, end, NOTICE);
}

/**
 * Whether `not found`, starting at `at` of `bytes`, is a shell's report that a command's program is not
 * there: the whole word {@link PROGRAM_WORD} and one or more spaces before it.
 */
export function programMissingAt(bytes: Uint8Array, at: number): boolean {
  const j = spacesBefore(bytes, at);
  return j < at && wordEndsAt(bytes, j, PROGRAM);
}

/**
 * Whether `not found`, starting at `at` of `bytes`, is a compiler's report of a wrong member: the whole word
 * {@link MEMBER_WORD}, spaces, a name (bytes that are not white space), spaces before it.
 */
export function memberMissingAt(bytes: Uint8Array, at: number): boolean {
  let j = spacesBefore(bytes, at);
  if (j === at) return false;
  const nameEnd = j;
  while (j > 0 && !isSpace(bytes[j - 1] as number)) j--;
  if (j === nameEnd) return false;
  const kindEnd = spacesBefore(bytes, j);
  return kindEnd < j && wordEndsAt(bytes, kindEnd, MEMBER);
}

/**
 * Whether `0 items`, ending at `end` of text `bytes[0, len)`, is pytest's count of modules that failed to
 * import: {@link COLLECTION_ERRORS}, one or more digits, {@link ERROR_WORD}.
 */
export function collectionErrorsAt(bytes: Uint8Array, len: number, end: number): boolean {
  if (!startsAt(bytes, len, end, SLASH)) return false;
  let j = end + SLASH.length;
  const digits = j;
  while (j < len && (bytes[j] as number) >= 0x30 && (bytes[j] as number) <= 0x39) j++;
  return j > digits && startsAt(bytes, len, j, ERROR);
}

/**
 * Whether `does not exist` (or `doesn't exist`) from `at` to `end` of text `bytes[0, len)` reports a wrong
 * name: after one of {@link NAME_KINDS}, spaces, a name, spaces; or after {@link BARE_KIND} and spaces; or
 * followed by one of {@link ON_A_TYPE}.
 */
export function wrongNameAt(bytes: Uint8Array, len: number, at: number, end: number): boolean {
  for (const w of TYPE_AFTER) if (startsAt(bytes, len, end, w)) return true;
  let j = spacesBefore(bytes, at);
  if (j === at) return false;
  if (wordEndsAt(bytes, j, BARE)) return true;
  const nameEnd = j;
  while (j > 0 && !isSpace(bytes[j - 1] as number)) j--;
  if (j === nameEnd) return false;
  const kindEnd = spacesBefore(bytes, j);
  if (kindEnd === j) return false;
  for (const w of KINDS) if (wordEndsAt(bytes, kindEnd, w)) return true;
  return false;
}
