/**
 * Shell commands that only print files as they are: `cat docs/plan.md`, `nl -ba src/a.ts`, `sed -n
 * '1,200p' spec.md`, `head -n 40 README.md`. Their answer is the files' content: a report of the state of
 * the workspace, not a behaviour. Read again after the workspace changed, it is a look at the new state (the
 * file just rewritten, or the project's constitution read again at the start of each new step), as a status
 * query's is (status-query.ts), even when the file read did not change; src/policy/evidence-screen.ts weighs
 * both alike (reportsState).
 *
 * A build's output is not one (a path with a folder of {@link BUILD_FOLDERS}: `_build/html/index.html`,
 * `dist/app.js`): read again after each rebuild, it describes the behaviour the edits were to change, as a
 * reproduction script's output does.
 *
 * Only a whole command is one: one printer, its flags, up to {@link MAX_FILES} paths, nothing chained, piped
 * or redirected (`cat a | grep x`, `cat a > b`, `cat <<EOF` are other work), and no glob or expansion in a
 * path. Wrappers read first: a shell's `-c` (`bash -lc cat a`, as Codex gives its argv joined), `cd DIR &&`.
 * Reads at most {@link FILE_READ_LOOK} characters.
 */

/** Characters of a command read at most (a read of files is a short command). */
export const FILE_READ_LOOK = 512;

/** Paths a read names at most. */
export const MAX_FILES = 8;

/** A shell running the rest as its command: `bash -lc`, `sh -c`, `zsh -c`. */
const SHELL_C = /^(?:\S*\/)?(?:bash|sh|zsh)\s+-l?c\s+/;

/** A change of directory first: `cd /repo &&`. */
const CD_FIRST = /^cd\s+(?:"[^"\n]*"|'[^'\n]*'|[^\s;&|]+)\s*&&\s*/;

/** A path: quoted, or a word without a glob, an expansion, a redirect or a separator. */
const PATH = String.raw`(?:"[^"\n$\`*?]*"|'[^'\n]*'|[^\s;&|<>\`$()*?{}\[\]"'\\]+)`;

/** The printers with the flags that keep them printers (`sed -n 'N,Mp'`, not `sed -i`). */
const PRINTER = String.raw`(?:cat(?:\s+-[AbEnsTuv]+)*|nl(?:\s+-[a-z]+)*|head(?:\s+(?:-n\s*\d+|-\d+|-c\s*\d+))?|sed\s+-n\s+(?:'\d+(?:,\d+)?p'|"\d+(?:,\d+)?p"|\d+(?:,\d+)?p))`;

const FILE_READ = new RegExp(`^${PRINTER}(?:\\s+${PATH}){1,${MAX_FILES}}\\s*$`);

/** Folders a build writes its output into. */
export const BUILD_FOLDERS: readonly string[] = Object.freeze(['_build', 'build', 'dist', 'out', 'target', '.next', 'coverage', 'htmlcov']);

/** A path segment naming one of BUILD_FOLDERS (after the start, a slash, or a quote; before a slash). */
const BUILD_PATH = new RegExp(`(?:^|[\\s/'"])(?:${BUILD_FOLDERS.map((f) => f.replaceAll('.', '\\.')).join('|')})/`);

/** Whether a shell command only prints files (see the file's comment). */
export function printsFiles(command: string): boolean {
  let c = (command.length > FILE_READ_LOOK ? command.slice(0, FILE_READ_LOOK) : command).trim();
  const shell = SHELL_C.exec(c);
  if (shell !== null) {
    c = c.slice(shell[0].length).trim();
    // `bash -lc 'cat a'`: the quotes around the whole command
    const q = c[0];
    if ((q === '"' || q === "'") && c.length > 1 && c.endsWith(q)) c = c.slice(1, -1).trim();
  }
  c = c.replace(CD_FIRST, '');
  const first = c.charCodeAt(0);
  // c(at), n(l), h(ead), s(ed): most commands begin otherwise
  if (first !== 0x63 && first !== 0x6e && first !== 0x68 && first !== 0x73) return false;
  return FILE_READ.test(c) && !BUILD_PATH.test(c);
}
