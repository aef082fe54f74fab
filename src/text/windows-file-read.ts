/**
 * Windows' ways of printing files as they are, as file-read.ts reads `cat`, `head` and `sed -n` on a POSIX
 * shell: PowerShell's `Get-Content` (its alias `gc`; `-Raw`, `-Path`, `-LiteralPath`, `-TotalCount N`, `-Head N`,
 * `-First N`, `-Encoding E`) and `type` (cmd.exe's, and PowerShell's alias), run alone or through the shell
 * that runs them: `powershell.exe -NoProfile -Command Get-Content -Raw 'spec.md'` (Codex gives its argv joined),
 * `pwsh -c "..."`, `cmd /c type apps\web\page.tsx`. Their answer is the files' content: a report of the state of
 * the workspace, as on any other system.
 *
 * Only a whole command is one, as in file-read.ts: one printer, its flags, up to {@link WINDOWS_MAX_FILES} paths,
 * nothing chained, piped, assigned or redirected (`Get-Content a | Select-Object -First 50`, `$t = Get-Content a;
 * ...`, `(Get-Content a).Replace(...)` are other work), no wildcard or expansion in a path; a path may hold
 * backslashes, Windows' separator. A build's output (a path through a folder of file-read.ts's BUILD_FOLDERS,
 * either separator) is not one. PowerShell's words read in any case, as it does. Reads at most
 * {@link WINDOWS_READ_LOOK} characters.
 */
import { BUILD_FOLDERS, printsFiles } from './file-read.js';

/** Characters of a command read at most (a read of files is a short command). */
export const WINDOWS_READ_LOOK = 512;

/** Paths a read names at most. */
export const WINDOWS_MAX_FILES = 8;

/** PowerShell running the rest as its command, with the flags that change nothing of it. */
export const POWERSHELL_C = /^(?:\S*[\\/])?(?:powershell|pwsh)(?:\.exe)?(?:\s+-(?:NoLogo|NoProfile|NonInteractive|ExecutionPolicy\s+\w+))*\s+-(?:Command|c)\s+/i;

/** cmd.exe running the rest as its command. */
export const CMD_C = /^(?:\S*[\\/])?cmd(?:\.exe)?\s+\/[cC]\s+/;

/**
 * The command a Windows shell is given to run (`powershell -Command "Get-Content a"`, `cmd /c type a`: the
 * part after the shell and its flags, without the quotes around the whole of it), or `command` as it is when
 * no shell runs it.
 */
export function commandInShell(command: string): string {
  const shell = POWERSHELL_C.exec(command) ?? CMD_C.exec(command);
  if (shell === null) return command;
  const c = command.slice(shell[0].length).trim();
  const q = c[0];
  return (q === '"' || q === "'") && c.length > 1 && c.endsWith(q) ? c.slice(1, -1).trim() : c;
}

/**
 * A path: quoted, or a word without a wildcard, an expansion, a redirect, a separator or a quote, backslashes
 * allowed, not beginning with `-` (a flag not of {@link GC_FLAG}, `-Wait` or `-Tail`, is other work).
 */
export const WIN_PATH = String.raw`(?:"[^"\n$\`*?]*"|'[^'\n]*'|(?!-)[^\s;&|<>\`$()*?{}\[\]"',=]+)`;

/** Get-Content's flags that keep it a printer (a flag with its value). */
const GC_FLAG = String.raw`-(?:Raw|Path|LiteralPath|TotalCount\s+\d+|Head\s+\d+|First\s+\d+|Encoding\s+[\w-]+)`;

/** `Get-Content` (or `gc`) with its flags and paths, or `type` with paths. */
const WINDOWS_READ = new RegExp(String.raw`^(?:(?:Get-Content|gc)(?:\s+(?:${GC_FLAG}|${WIN_PATH})){1,${2 * WINDOWS_MAX_FILES}}|type(?:\s+${WIN_PATH}){1,${WINDOWS_MAX_FILES}})\s*$`, 'i');

/** A path segment naming one of BUILD_FOLDERS, either separator after it. */
const WIN_BUILD_PATH = new RegExp(String.raw`(?:^|[\s/\\'"])(?:${BUILD_FOLDERS.map((f) => f.replaceAll('.', '\\.')).join('|')})[/\\]`, 'i');

/** Whether a command (already trimmed) only prints files the Windows way (see the file's comment). */
export function printsFilesOnWindows(command: string): boolean {
  const c = commandInShell(command.length > WINDOWS_READ_LOOK ? command.slice(0, WINDOWS_READ_LOOK) : command);
  // G(et-Content), g(c), t(ype), in either case: most commands begin otherwise
  const first = c.charCodeAt(0) | 0x20;
  if (first !== 0x67 && first !== 0x74) return false;
  return WINDOWS_READ.test(c) && !WIN_BUILD_PATH.test(c);
}

/** Whether a shell command only prints files, on a POSIX shell (file-read.ts's printsFiles) or the Windows way. */
export function printsFilesAnyShell(command: string): boolean {
  return printsFiles(command) || printsFilesOnWindows(command.trim());
}
