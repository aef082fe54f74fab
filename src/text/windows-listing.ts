/**
 * A look at paths the Windows way that found them not there, as failure-kinds.ts reads "ls: cannot access 'x':
 * No such file or directory": PowerShell's `Get-ChildItem` (its aliases `gci`, `ls`, `dir`) or `Get-Item`
 * (`gi`) of a few paths, alone or through `powershell.exe`/`pwsh` `-Command`, answering only "Cannot find
 * path '<path>' because it does not exist." (windows-missing-path.ts) for each. A probe that found nothing
 * (`Get-ChildItem -Force AGENTS.md`, `Get-ChildItem '.specify/templates/commands'` while the agent learns the
 * project): the missing path is an answer, not the agent's wall. Only a whole command is one, as in
 * windows-file-read.ts: its flags of {@link LIST_FLAG}, up to {@link WINDOWS_MAX_LISTED} paths, nothing piped,
 * chained or assigned (`Get-ChildItem x | Select-Object Name` is other work). Reads at most
 * {@link WINDOWS_LISTING_LOOK} characters of the command.
 */
import { WIN_PATH, commandInShell } from './windows-file-read.js';
import { saysPathsMissingOnWindows } from './windows-missing-path.js';

/** Characters of a command read at most (a look at paths is a short command). */
export const WINDOWS_LISTING_LOOK = 512;

/** Paths a listing names at most. */
export const WINDOWS_MAX_LISTED = 8;

/** The flags that keep `Get-ChildItem` a look at the paths it names (no filter, no wildcard). */
const LIST_FLAG = String.raw`-(?:Force|File|Directory|Name|Hidden|Recurse|Path|LiteralPath|Depth\s+\d+)`;

/** `Get-ChildItem` (`gci`, `ls`, `dir`) or `Get-Item` (`gi`) with its flags and paths. */
const WINDOWS_LIST = new RegExp(String.raw`^(?:Get-ChildItem|gci|ls|dir|Get-Item|gi)(?:\s+(?:${LIST_FLAG}|${WIN_PATH})){1,${2 * WINDOWS_MAX_LISTED}}\s*$`, 'i');

/** Whether a command (already trimmed) only looks at paths the Windows way (see the file's comment). */
export function listsPathsOnWindows(command: string): boolean {
  const c = commandInShell(command.length > WINDOWS_LISTING_LOOK ? command.slice(0, WINDOWS_LISTING_LOOK) : command);
  // G(et-ChildItem, et-Item, ci, i), l(s), d(ir), in either case: most commands begin otherwise
  const first = c.charCodeAt(0) | 0x20;
  if (first !== 0x67 && first !== 0x6c && first !== 0x64) return false;
  return WINDOWS_LIST.test(c);
}

/** Whether a failed `command` only looks at paths the Windows way and its failure `text` says only that they are not there. */
export function listedMissingOnWindows(command: string, text: string): boolean {
  return listsPathsOnWindows(command.trim()) && saysPathsMissingOnWindows(text);
}
