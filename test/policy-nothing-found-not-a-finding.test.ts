/**
 * "Not found" and "does not exist" that report no empty search. npm's notice before every `npx` of a package
 * it has not cached ("The following package was not found and will be installed") and a wrong name in the
 * agent's own query or code (psql's `column "email" does not exist`, TypeScript's `Property 'x' does not
 * exist on type 'Y'`) are no "found nothing". Read as one, they joined unrelated failures into the dead end's
 * class of failures that found nothing: devset 972885bf warned at its 9th call on an `npx create-next-app`
 * that refused a non-empty folder and two `rm` of files already gone; devset 4a157229 at #333 on a `sleep`
 * given a command as its argument and two psql queries naming different columns that are not there. pytest's
 * "collected 0 items / 6 errors" (its modules did not import) and TypeScript's "'test' does not exist in type
 * 'UserConfigExport'" are no "found nothing" either (devset 019b55c1 #256, 019d021f #44). The
 * same wrong name coming back is still a dead end (the class of its error text), and a real "not found"
 * near them still says nothing was found. Both engines, and the module's reading against its TypeScript twin.
 */
// vitest: isolate (the module's scratch area, through ./helpers/nothing-found-readings)
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { nothingFoundReadings as readings } from './helpers/nothing-found-readings.js';
import { ENGINES, deadEndsAt } from './helpers/verdicts.js';


const NPX = 'Exit code 1\nnpm warn exec The following package was not found and will be installed: create-next-app@16.1.1\n\nThe directory portfolio contains files that could conflict:\n\n  README.md\n\nEither try using a new directory name, or remove the files listed above.';

describe('phrases that report no empty search', () => {
  it("should not read npm's notice that it will install a package as nothing found", () => {
    expect(readings(NPX)).toEqual([false, false]);
    expect(readings('npm WARN exec The following packages were not found and will be installed: a@1, b@2\nok')).toEqual([false, false]);
    expect(readings('NOT FOUND AND WILL BE INSTALLED')).toEqual([false, false]);
  });

  it('should not read a wrong name in a query or in code as nothing found', () => {
    expect(readings('Exit code 1\nERROR:  column "email" does not exist\nLINE 5: DELETE FROM auth.refresh_tokens WHERE email = \'a@b.c\'')).toEqual([false, false]);
    expect(readings('ERROR: relation "identities" does not exist (SQLSTATE 42P01)')).toEqual([false, false]);
    expect(readings('ERROR: type "auth.factor_type" does not exist')).toEqual([false, false]);
    expect(readings('ERROR: operator does not exist: uuid = text')).toEqual([false, false]);
    expect(readings('{"code":"42703","message":"column users.foo does not exist"}')).toEqual([false, false]);
    expect(readings("src/a.tsx(27,70): error TS2339: Property 'user_login' does not exist on type 'UserData'.")).toEqual([false, false]);
    expect(readings('FATAL:  database "ynab_development" doesn\'t exist')).toEqual([false, false]);
    expect(readings("vite.config.ts(16,3): error TS2769: No overload matches this call.\n  Object literal may only specify known properties, and 'test' does not exist in type 'UserConfigExport'.")).toEqual([false, false]);
  });

  it("should not read pytest's collection that failed to import as nothing found, but should read one that found no tests", () => {
    expect(readings('============ test session starts ============\nplatform linux -- Python 3.11.14, pytest-9.0.2\ncollected 0 items / 6 errors\n\n==== ERRORS ====')).toEqual([false, false]);
    expect(readings('collected 0 items / 1 error')).toEqual([false, false]);
    expect(readings('collected 0 items\n\n===== no tests ran in 0.01s =====')).toEqual([true, true]);
    expect(readings('collected 0 items / 1 skipped')).toEqual([true, true]);
  });

  it('should still read a real "not found" or "does not exist" as nothing found, beside them or alone', () => {
    expect(readings('npm ERR! 404 Not Found - GET https://registry.npmjs.org/nope')).toEqual([true, true]);
    expect(readings('package was not found and will not be installed')).toEqual([true, true]);
    expect(readings('File does not exist.')).toEqual([true, true]);
    expect(readings('the column does not exist')).toEqual([true, true]);
    expect(readings('subtype "x" does not exist')).toEqual([true, true]);
    expect(readings('column  does not exist')).toEqual([true, true]);
    expect(readings('column "a"does not exist')).toEqual([true, true]);
    expect(readings(`${NPX}\nrm: README.md: No such file or directory`)).toEqual([true, true]);
    expect(readings('ERROR:  column "email" does not exist\nno rows')).toEqual([true, true]);
  });
});

/** A Claude Code Bash call failing with `out`. */
const bash = (command: string, out: string): ToolEvent => ({ tool: 'Bash', args: { command }, result: out, error: out });
const ok = (command: string, out: string): ToolEvent => ({ tool: 'Bash', args: { command }, result: out });

/** devset 972885bf's start: `npx create-next-app` refused by a folder with files, then files removed twice. */
const npxThenRm: ToolEvent[] = [
  ok('ls -la', 'total 16\ndrwxr-xr-x  5 me staff 160 Jan  3 16:34 .\n-rw-r--r--  1 me staff  11 Jan  3 16:34 README.md'),
  bash('npx create-next-app@latest . --typescript --tailwind --app', NPX),
  { tool: 'Read', args: { file_path: '/Users/me/portfolio/README.md' }, result: '1\u2192# portfolio' },
  bash('mv README.md README.md.bak && npx create-next-app@latest . --typescript --tailwind --app', 'Exit code 1\nThe directory portfolio contains files that could conflict:\n\n  README.md.bak\n\nEither try using a new directory name, or remove the files listed above.'),
  bash('rm README.md.bak README.md', 'Exit code 1\nrm: README.md: No such file or directory'),
  bash('rm README.md.bak', 'Exit code 1\nrm: README.md.bak: No such file or directory'),
];

const PSQL = 'docker exec supabase-db psql -U postgres -d postgres -c';
/** devset 4a157229 near #333: a misused `sleep`, then two queries naming different columns that are not there. */
const sleepThenColumns: ToolEvent[] = [
  bash('sleep 5\ndocker ps | grep gotrue', "Exit code 2\nsleep: invalid time interval 'docker'\nsleep: invalid time interval 'ps'\nTry 'sleep --help' for more information.\ngrep: gotrue: No such file or directory"),
  ok('sleep 5 && docker ps | grep gotrue', '830adb540490   supabase/gotrue:v2.185.0   "auth"   Up 23 seconds   supabase-gotrue'),
  bash(`${PSQL} "DELETE FROM auth.refresh_tokens WHERE email = 'a@b.c';"`, "Exit code 1\nERROR:  column \"email\" does not exist\nLINE 5: DELETE FROM auth.refresh_tokens WHERE email = 'a@b.c'\n                                               ^"),
  ok('curl -X POST "http://localhost:9999/signup" -d \'{"email":"a@b.c"}\'', '{"code":"23505","message":"duplicate key value violates unique constraint"}'),
  bash(`${PSQL} "SELECT * FROM auth.audit_log_entries WHERE record_id = 'a@b.c';"`, "Exit code 1\nERROR:  column \"record_id\" does not exist\nLINE 9: SELECT * FROM auth.audit_log_entries WHERE record_id = 'a@b.c'\n                                                     ^"),
];

/** The same wrong column, query after query. */
const sameWrongColumn: ToolEvent[] = ['id', 'id, email', 'email', '*'].map((cols) =>
  bash(`${PSQL} "SELECT ${cols} FROM auth.users WHERE mail = 'a@b.c';"`, 'Exit code 1\nERROR:  column "mail" does not exist\nLINE 1: SELECT FROM auth.users WHERE mail = \'a@b.c\'\n                                     ^'),
);

describe.each(ENGINES)('failures joined by what they say (%s engine)', (engine) => {
  it("should see no dead end in npx's install notice and two rm of files already gone", () => {
    expect(deadEndsAt(npxThenRm, engine)).toEqual([]);
  });

  it('should see no dead end in a misused sleep and two different wrong column names', () => {
    expect(deadEndsAt(sleepThenColumns, engine)).toEqual([]);
  });

  it('should still see a dead end when the same wrong column comes back', () => {
    expect(deadEndsAt(sameWrongColumn, engine).length).toBeGreaterThan(0);
  });
});
