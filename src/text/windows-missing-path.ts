/**
 * PowerShell's way of saying a path is not there, as missing-read.ts reads "cat: x: No such file or directory":
 * one error record a path, "Cannot find path '<path>' because it does not exist.", in either of the forms the
 * traces hold (colour codes taken off first):
 *
 *   pwsh 7 (ConciseView):   Get-Content: Cannot find path 'C:\p\main.rs' because it does not exist.
 *   pwsh 7, a script line:  Get-Content:
 *                           Line |
 *                              2 |  Get-Content -Raw 'apps/platform/vitest.config.ts'
 *                                |  ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 *                                | Cannot find path 'C:\p\apps\platform\vitest.config.ts' because it does not exist.
 *   Windows PowerShell 5.1: Get-Content : Cannot find path 'C:\p\spec.md' because it does not
 *                           exist.
 *                           At line:1 char:1
 *                           + Get-Content -Raw -Path 'C:\p\spec.md'
 *                           + ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 *                               + CategoryInfo          : ObjectNotFound: (C:\p\spec.md:String) [Get-Content], ItemNotFoundEx
 *                              ception
 *                               + FullyQualifiedErrorId : PathNotFound,Microsoft.PowerShell.Commands.GetContentCommand
 *
 * Windows PowerShell wraps its lines at the console's width, anywhere in a word ("does not \nexist.",
 * "...\Douluo\D\nouluo\..."): the message's lines are joined as they were before the wrap. A record saying
 * anything else (access denied, a parameter not found) is not one, nor is a 5.1 record whose error id is not
 * PathNotFound. Reads at most {@link WINDOWS_MISSING_LOOK} characters; a longer text is not read.
 */
import { withoutColour } from './colour-codes.js';
import { EXIT_STATUS_LINE } from './exit-status-line.js';

/** Characters of a failure's text read at most (three 5.1 records of long paths). */
export const WINDOWS_MISSING_LOOK = 4096;

/** A record's first line: a cmdlet's name (`Get-Content`, `gc`, `Resolve-Path`), a colon, and the rest. */
const RECORD_HEAD = /^([A-Za-z]+(?:-[A-Za-z]+)?) ?: ?(.*)$/;

/** The message, its wrapped lines joined. */
const MISSING_MESSAGE = /^Cannot find path '.+' because it does not exist\.\s*$/;

/** Where 5.1's message ends: its position line ("At line:1 char:1", "At C:\x.psm1:265 char:34"). */
const AT_LINE = /^At (?:line:\d+|.+:\d+) char:\d+\s*$/;

/** 5.1's command lines under the position ("+ Get-Content ...", "+ ~~~~"). */
const CODE_LINE = /^\+ /;

/** 5.1's error id of a path not found. */
const PATH_NOT_FOUND_ID = /^\s+\+ FullyQualifiedErrorId : PathNotFound,/;

/** 5.1's category line, and the lines its wrap left (indented, no `+`). */
const CATEGORY_LINE = /^\s+\+ CategoryInfo\s+: ObjectNotFound: /;
const WRAP_REST = /^\s{2,}[^\s+]/;

/** pwsh 7's gutter: "Line |", "   2 |  code", "     |  ~~~", "     | message". */
const GUTTER = /^\s*(?:Line|\d+)? ?\|(?: (.*))?$/;

/** The line after the record beginning at `i` when it says a path is not there, or -1. */
function missingRecordEnd(lines: readonly string[], i: number): number {
  const head = RECORD_HEAD.exec(lines[i]!);
  if (head === null) return -1;
  const rest = head[2]!;
  if (rest.trim() === '') {
    const end = gutterRecordEnd(lines, i + 1);
    if (end >= 0) return end;
  }
  // pwsh 7 on one line, or 5.1's message wrapped over lines up to its position line
  if (MISSING_MESSAGE.test(rest)) return lines[i + 1] !== undefined && AT_LINE.test(lines[i + 1]!) ? fullRecordEnd(lines, i + 1) : i + 1;
  let message = rest;
  let j = i + 1;
  while (j < lines.length && !AT_LINE.test(lines[j]!) && j - i < 4) message += lines[j++];
  if (j >= lines.length || !AT_LINE.test(lines[j]!) || !MISSING_MESSAGE.test(message)) return -1;
  return fullRecordEnd(lines, j);
}

/** The line after a 5.1 record whose position line is at `at`, when its error id is PathNotFound, or -1. */
function fullRecordEnd(lines: readonly string[], at: number): number {
  let j = at + 1;
  while (j < lines.length && CODE_LINE.test(lines[j]!)) j++;
  if (j >= lines.length || !CATEGORY_LINE.test(lines[j]!)) return -1;
  j++;
  while (j < lines.length && WRAP_REST.test(lines[j]!) && !PATH_NOT_FOUND_ID.test(lines[j]!)) j++;
  return j < lines.length && PATH_NOT_FOUND_ID.test(lines[j]!) ? j + 1 : -1;
}

/** The line after a pwsh 7 gutter record beginning at `from`, when its message says a path is not there, or -1. */
function gutterRecordEnd(lines: readonly string[], from: number): number {
  let j = from;
  let message = '';
  while (j < lines.length) {
    const g = GUTTER.exec(lines[j]!);
    if (g === null) break;
    const said = (g[1] ?? '').trim();
    // the code and its marks are not the message; the message follows the marks
    if (/^~+$/.test(said)) message = '';
    else message += (message === '' ? '' : ' ') + said;
    j++;
  }
  return j > from && MISSING_MESSAGE.test(message) ? j : -1;
}

/**
 * Whether a failure's `text` is only PowerShell error records saying paths are not there (at least one; blank
 * lines and an exit status aside).
 */
export function saysPathsMissingOnWindows(text: string): boolean {
  if (text.length > WINDOWS_MISSING_LOOK || !text.includes('Cannot find path')) return false;
  const lines = withoutColour(text).replaceAll('\r', '').split('\n');
  let missing = 0;
  for (let i = 0; i < lines.length; ) {
    const line = lines[i]!;
    if (line.trim() === '' || EXIT_STATUS_LINE.test(line)) {
      i++;
      continue;
    }
    const end = missingRecordEnd(lines, i);
    if (end < 0) return false;
    missing++;
    i = end;
  }
  return missing > 0;
}
