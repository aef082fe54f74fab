/**
 * Output that is only a package runner's banner: `npm run lint` printing `> app@0.1.0 lint` and `> eslint
 * .` (pnpm adds the folder: `> app@0.1.0 lint /home/me/app`), Yarn 1 printing `yarn run v1.22.19`, `$
 * eslint .` and `Done in 2.41s.`, then nothing of the script's own. The banner is the runner's, not the
 * check's: a lint, type check or formatter check that prints nothing has passed, as a bare `eslint .` or
 * `tsc --noEmit` printing nothing has (failure-report.ts reads an empty output as a pass). Reads at most
 * {@link BANNER_LOOK} characters; a longer output is never only a banner.
 */

/** Characters of an output read at most. */
export const BANNER_LOOK = 1024;

/** How a banner begins, blank lines aside: npm's `> `, Yarn's `yarn run v`. */
const BANNER_START = /^\s*(?:> |yarn run v)/;

/** npm's or pnpm's first banner line: `> name@version script` (a scoped name `@org/app@1.0.0`; pnpm adds the folder). */
const NPM_HEAD = /^> (?:@[^\s@/]+\/)?[^\s@]+@\S* \S+(?: \S.*)?$/;

/** A further line of npm's banner: the script's command, `> eslint .` (a command of several lines, each so). */
const NPM_LINE = /^> /;

/** Yarn 1's banner: `yarn run v1.22.19`, `$ eslint .`, `Done in 2.41s.` */
const YARN_LINE = /^(?:yarn run v\d[\w.-]*|\$ .+|done in \d+(?:\.\d+)?m?s\.?)$/i;

/**
 * Whether every line of an output that says anything belongs to a package runner's banner (at least one:
 * npm's or pnpm's `> name@version script` first, then `> command` lines; or Yarn 1's three lines).
 */
export function printsOnlyBanner(text: string): boolean {
  // most outputs begin otherwise: one look at their start
  if (text.length > BANNER_LOOK || !BANNER_START.test(text)) return false;
  let lines = 0;
  let npm = false;
  let yarn = false;
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (line.trim() === '') continue;
    if (lines === 0 && NPM_HEAD.test(line)) npm = true;
    else if (npm && NPM_LINE.test(line)) {
      // a further line of npm's banner
    } else if (!npm && YARN_LINE.test(line)) yarn = true;
    else return false;
    lines++;
  }
  return npm || (yarn && lines >= 2);
}
