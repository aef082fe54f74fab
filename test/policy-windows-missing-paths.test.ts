/**
 * PowerShell says a path is not there as "Cannot find path '<path>' because it does not exist." (quiet34, s25):
 * pwsh 7 on one line in colour, pwsh 7 under a "Line |" gutter, or Windows PowerShell 5.1 wrapped at the
 * console's width with its position, code, CategoryInfo and FullyQualifiedErrorId lines. A Codex session on
 * Windows learning a project guesses where files live (`Get-Content -Path AGENTS.md`, `Get-Content
 * frontend/vitest.config.ts`, `Get-ChildItem -Force .specify/templates/commands`) as one on Linux does with
 * `sed -n` and `ls`; those were read as probes that found nothing ("No such file or directory":
 * missing-read.ts, failure-kinds.ts), these as real failures, three different ones a dead end. Now read alike
 * (windows-missing-path.ts, missing-read.ts, windows-listing.ts; host side, both engines). The same read of a
 * missing file, again and again, still breaks.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { readMissingFile } from '../src/text/missing-read.js';
import { listedMissingOnWindows, listsPathsOnWindows } from '../src/text/windows-listing.js';
import { saysPathsMissingOnWindows } from '../src/text/windows-missing-path.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const DIR = 'C:\\Users\\mara\\code\\ledger';
const ESC = '\u001b';

/** pwsh 7's one-line record, in colour. */
const concise = (cmdlet: string, path: string): string => `${ESC}[31;1m${cmdlet}: ${ESC}[31;1mCannot find path '${DIR}\\${path}' because it does not exist.${ESC}[0m\n`;

/** pwsh 7's record under a gutter (a command run as a script line). */
const gutter = (cmdlet: string, command: string, path: string): string =>
  `${ESC}[31;1m${cmdlet}: ${ESC}[0m\n${ESC}[31;1m${ESC}[36;1mLine |${ESC}[0m\n${ESC}[36;1m   2 | ${ESC}[0m ${command}\n${ESC}[36;1m     | ${ESC}[31;1m ${'~'.repeat(command.length)}${ESC}[0m\n${ESC}[36;1m     | ${ESC}[31;1mCannot find path '${DIR}\\${path}' because it does not exist.${ESC}[0m\n`;

/** Windows PowerShell 5.1's record, its message wrapped where the console's width fell (`wrapAt`). */
function full(cmdlet: string, command: string, path: string, wrapAt: number): string {
  const message = `${cmdlet} : Cannot find path '${DIR}\\${path}' because it does not exist.`;
  const wrapped = `${message.slice(0, wrapAt)}\n${message.slice(wrapAt)}`;
  const name = cmdlet.replace('-', '');
  return `${wrapped}\nAt line:2 char:1\n+ ${command}\n+ ${'~'.repeat(command.length)}\n    + CategoryInfo          : ObjectNotFound: (${DIR}\\${path}:String) [${cmdlet}], ItemNotFoundEx \n   ception\n    + FullyQualifiedErrorId : PathNotFound,Microsoft.PowerShell.Commands.${name}Command\n \n`;
}

/** A Codex call on Windows (`shell_command`) and what it answered. */
const failing = (command: string, text: string): ToolEvent => ({ tool: 'shell_command', args: { command, workdir: DIR }, error: text });
const ok = (command: string, result: string): ToolEvent => ({ tool: 'shell_command', args: { command, workdir: DIR }, result });

/**
 * A project learned by guessing where its files live: the tests' configs looked for in each app (three guesses in
 * a row, as holdout4 019c7ef5 did), then other guesses, in the three forms, files found between.
 */
const EXPLORING: ToolEvent[] = [
  ok('Get-ChildItem -Name apps', 'admin\njudge\nplatform'),
  failing("Get-Content -Raw 'apps/platform/vitest.config.ts'", concise('Get-Content', 'apps\\platform\\vitest.config.ts')),
  failing("Get-Content -Raw 'apps/admin/vitest.config.ts'", concise('Get-Content', 'apps\\admin\\vitest.config.ts')),
  failing("Get-Content -Raw 'apps/judge/vitest.config.ts'", concise('Get-Content', 'apps\\judge\\vitest.config.ts')),
  failing('Get-Content -Path AGENTS.md', full('Get-Content', 'Get-Content -Path AGENTS.md', 'AGENTS.md', 70)),
  ok('Get-Content -Raw README.md', '# ledger\nA small bookkeeping app.\n'),
  failing('Get-ChildItem -Force .specify/templates/commands', full('Get-ChildItem', 'Get-ChildItem -Force .specify/templates/commands', '.specify\\templates\\commands', 40)),
  failing("Get-Content -Raw 'backend/app/settings.py'", gutter('Get-Content', "Get-Content -Raw 'backend/app/settings.py'", 'backend\\app\\settings.py')),
  ok('Get-Content -Raw vitest.workspace.ts', "export default ['apps/*'];\n"),
];

/** The same read of a missing file, again and again. */
const SAME: ToolEvent[] = Array.from({ length: 6 }, () => failing('Get-Content -Path AGENTS.md', full('Get-Content', 'Get-Content -Path AGENTS.md', 'AGENTS.md', 70)));

describe("PowerShell's word that a path is not there", () => {
  it('should read each form: one line in colour, under a gutter, and 5.1 wrapped anywhere', () => {
    expect(saysPathsMissingOnWindows(concise('Get-Content', 'src\\main.rs'))).toBe(true);
    expect(saysPathsMissingOnWindows(concise('Get-Content', 'a.rs') + concise('Get-Content', 'b.rs'))).toBe(true);
    expect(saysPathsMissingOnWindows(gutter('Get-Content', "Get-Content -Raw 'x.ts'", 'x.ts'))).toBe(true);
    for (const wrapAt of [14, 30, 50, 75, 90]) expect(saysPathsMissingOnWindows(full('Get-Content', 'Get-Content a', 'docs\\a b\\(2026) plan.md', wrapAt)), String(wrapAt)).toBe(true);
    expect(saysPathsMissingOnWindows(`Exit code 1\n${concise('Get-ChildItem', 'specs')}`)).toBe(true);
  });

  it('should not read another error, output beside the record, or a 5.1 record of another error id as one', () => {
    expect(saysPathsMissingOnWindows(`${ESC}[31;1mGet-Content: ${ESC}[31;1mAccess to the path '${DIR}\\x' is denied.${ESC}[0m\n`)).toBe(false);
    expect(saysPathsMissingOnWindows(`0\n${concise('Get-ChildItem', 'specs')}`)).toBe(false);
    expect(saysPathsMissingOnWindows(concise('Get-Content', 'a.rs') + 'fn main() {}\n')).toBe(false);
    expect(saysPathsMissingOnWindows(full('Get-Content', 'Get-Content a', 'a', 40).replace('PathNotFound,', 'NamedParameterNotFound,'))).toBe(false);
    expect(saysPathsMissingOnWindows('No such file or directory')).toBe(false);
    expect(saysPathsMissingOnWindows(concise('Get-Content', 'a') + 'x'.repeat(5000))).toBe(false);
  });

  it('should make a Windows read of a missing file, or a look at a missing path, a probe; a pipe or other work is not one', () => {
    expect(readMissingFile('Get-Content -Path AGENTS.md', concise('Get-Content', 'AGENTS.md'))).toBe(true);
    expect(readMissingFile("powershell.exe -NoProfile -Command Get-Content -Path kv.js -TotalCount 200", full('Get-Content', 'Get-Content -Path kv.js', 'kv.js', 60))).toBe(true);
    expect(readMissingFile('Get-Content -Path a.ts | Select-Object -First 260', concise('Get-Content', 'a.ts'))).toBe(false);
    expect(readMissingFile('Set-Content -Path a.ts -Value x', concise('Set-Content', 'a.ts'))).toBe(false);
    expect(listsPathsOnWindows('Get-ChildItem -Force AGENTS.md')).toBe(true);
    expect(listsPathsOnWindows("pwsh.exe -Command Get-ChildItem 'templates/users'")).toBe(true);
    expect(listsPathsOnWindows('Get-ChildItem templates/users | Select-Object Name')).toBe(false);
    expect(listsPathsOnWindows("Get-ChildItem docs -Filter '*.md'")).toBe(false);
    expect(listedMissingOnWindows('Get-ChildItem -Force .codex', concise('Get-ChildItem', '.codex'))).toBe(true);
    expect(listedMissingOnWindows('Remove-Item .codex', concise('Remove-Item', '.codex'))).toBe(false);
  });
});

describe.each(ENGINES)('a Windows session guessing where files live (%s engine)', (engine) => {
  it('should not flag different reads and looks at missing paths, one- or two-phase', () => {
    expect(flaggedActions(EXPLORING, engine)).toEqual([]);
    expect(liveActions(EXPLORING, engine)).toEqual([]);
  });

  it('should still flag the same read of a missing file again and again', () => {
    expect(flaggedActions(SAME, engine)).toContain('break');
    expect(liveActions(SAME, engine)).toContain('deny');
  });
});
