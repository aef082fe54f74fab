/**
 * Writes loopwatch did not see (quiet26). A Codex session on Windows (holdout3 019a6bf8) writes its spec
 * files with PowerShell's `Set-Content`, `New-Item`, `Remove-Item`, `Out-File`, and looks at `git status -sb`
 * between; a Claude Code patrol (devset 6d4c1970) moves its work along with beads' `bd update`, `bd dep
 * remove`, `bd close` and asks `bd ready` after each. Neither kind of command was a change of the workspace
 * (src/policy/workspace-changes.ts SHELL_WRITES), so each look seemed to follow nothing done and the same
 * status, asked again, was taken for a loop. The stuck twins still fire: the same look with only reads between.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { changesWorkspace } from '../src/policy/workspace-changes.js';
import { queriesStatus } from '../src/text/status-query.js';
import { ENGINES, flaggedActions } from './helpers/verdicts.js';

/** A Codex shell call through Windows PowerShell. */
const ps = (command: string, out: string): ToolEvent => ({ tool: 'shell', args: { command: ['powershell.exe', '-NoLogo', '-Command', command], workdir: 'C:\\Users\\dev\\lab' }, result: out });
/** A Claude Code Bash call. */
const bash = (command: string, out: string): ToolEvent => ({ tool: 'Bash', args: { command }, result: out });

const STATUS = '## main...origin/main\n?? specs/\n';
const DOCS = ['spec', 'plan', 'research', 'data-model', 'quickstart', 'tasks'];

/** Each spec document written by PowerShell, the repository's status looked at after each. */
const specs: ToolEvent[] = DOCS.flatMap((d, i) => [
  ps(i % 2 === 0 ? `Set-Content -Path 'specs/main/${d}.md' -Value @'\n# ${d}\n\nPart ${i} of the lab harness.\n'@` : `$${d} = @"\n# ${d}\n\nPart ${i}.\n"@\n$${d} | out-file -FilePath 'specs/main/${d}.md' -Encoding utf8`, ''),
  ps('git status -sb', STATUS),
]);

/** The same status looked at again and again, only a file printed between. */
const stuckStatus: ToolEvent[] = DOCS.flatMap(() => [ps("Get-Content -Raw -Path 'specs/main/spec.md'", '# spec\n\nPart 0 of the lab harness.\n'), ps('git status -sb', STATUS)]);

const READY = 'Ready work (1 issues with no blockers):\n\n1. [P2] hq-wisp-zkh: mol-deacon-patrol\n';
const STEPS = ['fbk', 'a3k', '408', 'r9e', 'g9b', 'cfm', 'c8p'];

/** A patrol: each step unblocked, claimed and closed with bd, then the tracker asked what is ready. */
const patrol: ToolEvent[] = STEPS.flatMap((s) => [
  bash(`bd dep remove hq-wisp-${s} hq-wisp-zkh && bd update hq-wisp-${s} --assignee=deacon --status=in_progress`, `✓ Removed dependency\n✓ Updated issue: hq-wisp-${s}\n`),
  bash(`bd close hq-wisp-${s}`, `✓ Closed hq-wisp-${s}: Closed\n`),
  bash('bd ready', READY),
]);

/** The tracker asked again and again with only its records shown between. */
const stuckReady: ToolEvent[] = STEPS.flatMap(() => [bash('bd show hq-wisp-zkh', 'hq-wisp-zkh: mol-deacon-patrol\nStatus: in_progress\n'), bash('bd ready', READY)]);

describe.each(ENGINES)('a status looked at again after writes loopwatch did not read (%s engine)', (engine) => {
  it('should not flag `git status` after each PowerShell write, one-phase', () => {
    expect(flaggedActions(specs, engine)).toEqual([]);
  });

  it('should still flag the same status with only reads between', () => {
    expect(flaggedActions(stuckStatus, engine)).not.toEqual([]);
  });

  it('should not flag `bd ready` after each `bd update` / `bd close`, one-phase', () => {
    expect(flaggedActions(patrol, engine)).toEqual([]);
  });

  it('should still flag `bd ready` with only `bd show` between', () => {
    expect(flaggedActions(stuckReady, engine)).not.toEqual([]);
  });
});

describe('writes by PowerShell and by task trackers', () => {
  it('should be changes of the workspace, whatever the case of a cmdlet', () => {
    for (const c of [
      "Set-Content -Path 'a.md' -Value 'x'",
      "set-content a.md 'x'",
      "ADD-CONTENT -Path log.txt -Value 'x'",
      "(Get-Content -Raw a.md) -replace 'a','b' | Set-Content -Path a.md",
      "$text | Out-File -FilePath 'a.txt'",
      "New-Item -ItemType Directory -Path 'docs' -Force | Out-Null",
      "Copy-Item a.json b.json",
      "Move-Item -Path a -Destination b",
      "if (Test-Path 'x64') { Remove-Item -Recurse -Force 'x64' }",
      "Rename-Item -Path a.txt -NewName b.txt",
      "$x | Tee-Object -FilePath out.txt",
      "[IO.File]::WriteAllText('a.txt', $s)",
      "$null = [System.IO.File]::AppendAllLines($p, $lines)",
    ]) {
      expect(changesWorkspace('shell', { command: ['powershell.exe', '-NoLogo', '-Command', c] }), c).toBe(true);
    }
    for (const c of ['bd update hq-1 --status=in_progress', 'bd create "Fix the gate" -t task', 'bd close hq-1', 'bd dep remove hq-2 hq-1', 'bd dep add hq-2 hq-1', 'bd sync', 'gh pr create --fill', 'gh issue comment 4 --body done', 'gh pr merge 12 --squash']) {
      expect(changesWorkspace('Bash', { command: c }), c).toBe(true);
    }
  });

  it('should not take reads for writes', () => {
    for (const c of ["Get-Content -Raw -Path 'a.md'", 'Get-ChildItem -Recurse', "Test-Path 'x'", "Select-String -Path a.vcxproj -Pattern 'Guid'", 'New-ItemProperty -Path HKCU:\\x -Name a', 'Format-Hex -Path a.md', 'rg -n "Set-ContentType" src', '[IO.File]::ReadAllText($p)']) {
      expect(changesWorkspace('shell', { command: ['powershell.exe', '-NoLogo', '-Command', c] }), c).toBe(false);
    }
    for (const c of ['bd ready', 'bd show hq-1', 'bd list --status=open', 'bd blocked', 'bd dep tree hq-1', 'gh pr view 12', 'gh issue list', 'gh run list']) {
      expect(changesWorkspace('Bash', { command: c }), c).toBe(false);
    }
  });

  it("should read a tracker's looks as status queries, and its writes not", () => {
    for (const c of ['bd ready', 'bd blocked', 'bd list --status=open --assignee=deacon --limit 30', 'bd show hq-wisp-fbk | head -30', 'cd ~/gt && bd ready']) expect(queriesStatus(c), c).toBe(true);
    for (const c of ['bd update hq-1 --status=in_progress', 'bd close hq-1', 'bd dep remove hq-2 hq-1', 'bd ready && bd close hq-1', 'bd', 'echo bd ready later']) expect(queriesStatus(c), c).toBe(false);
  });
});
