/**
 * On Windows an agent prints a file with PowerShell's `Get-Content` (or `type`), often through the shell that runs
 * it (`powershell.exe -NoProfile -Command Get-Content -Raw 'spec.md'`, `cmd /c type page.tsx`): the answer is the
 * file's content, the state of the workspace, as `cat`'s is on a POSIX shell (file-read.ts, quiet9). Read again at
 * each step of the work, new files written between, it is a look at the new state, and its content is no report
 * of an outcome (a spec that lists what "FAILED" means). Only `cat`, `nl`, `head` and `sed -n` were read so; the
 * same spec-kit steps run on Windows were broken. The stuck twin still breaks: the same file printed again and
 * again with nothing done between. Both engines.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { printsFilesAnyShell, printsFilesOnWindows } from '../src/text/windows-file-read.js';
import { ENGINES, flaggedActions, liveActions, verdictsOf } from './helpers/verdicts.js';

const DIR = 'C:\\Users\\ana\\src\\shop';
const FEATURE = 'specs\\004-gift-cards';
/** Codex on Windows: its argv, PowerShell running the command. */
const ps = (command: string, out: string): ToolEvent => ({ tool: 'shell', args: { command: ['powershell.exe', '-NoProfile', '-Command', command], workdir: DIR }, result: out });
const CONSTITUTION = '# Shop Constitution\n\n## Core Principles\n\n### I. Tests first\nNo change ships without an acceptance test.\n';
const SPEC = '# Feature Specification: Gift Cards\n\n## Edge Cases\n\n- A card past its date: the payment FAILED and the reason is shown.\n';
const write = (file: string, step: number): ToolEvent => ({
  tool: 'apply_patch',
  args: { input: `*** Begin Patch\n*** Add File: ${FEATURE}\\${file}\n+# ${file} (step ${step})\n*** End Patch` },
  result: `Success. Updated the following files:\nA ${FEATURE}\\${file}\n`,
});

/** Each spec-kit step: its prerequisite script, the spec and the constitution printed, new files written. */
const steps: ToolEvent[] = [1, 2, 3, 4, 5, 6].flatMap((n) => [
  ps('.specify\\scripts\\powershell\\check-prerequisites.ps1 -Json', `{"FEATURE_SPEC":"${DIR}\\${FEATURE}\\spec.md","BRANCH":"004-gift-cards"}\n`),
  ps(`Get-Content -Raw '${FEATURE}\\spec.md'`, SPEC),
  ps('Get-Content -Raw .specify\\memory\\constitution.md', CONSTITUTION),
  write('plan.md', n),
  write('research.md', n),
  write(`tasks-${n}.md`, n),
]);

/** The constitution printed again and again, only the same listing between. */
const stuck: ToolEvent[] = Array.from({ length: 6 }, () => [ps('Get-Content -Raw .specify\\memory\\constitution.md', CONSTITUTION), ps('Get-ChildItem -Name specs', '004-gift-cards\n')]).flat();

describe.each(ENGINES)('files printed by PowerShell at each step of the work (%s engine)', (engine) => {
  it('should not break the session, one-phase', () => {
    expect(flaggedActions(steps, engine)).not.toContain('break');
  });

  it('should not block a read, two-phase', () => {
    expect(liveActions(steps, engine)).not.toContain('deny');
  });

  it('should give the same verdicts in a session that only checks after the fact (checksOnly: scan, eval)', () => {
    for (const events of [steps, stuck]) {
      expect(JSON.stringify(verdictsOf(events, { engine }, { checksOnly: true }))).toBe(JSON.stringify(verdictsOf(events, { engine })));
    }
  });

  it('should still break the same file printed with nothing done between', () => {
    expect(flaggedActions(stuck, engine)).toContain('break');
  });
});

describe('commands that print files the Windows way', () => {
  it('should be read whole, alone or through PowerShell or cmd.exe, paths with backslashes', () => {
    for (const c of [
      'Get-Content -Raw docs\\about.md',
      "get-content -Path '.\\Board Minutes.md' -TotalCount 30",
      'gc src\\app.ts',
      'Get-Content -TotalCount 200 apps/frontend/src/index.html',
      "powershell.exe -NoProfile -Command Get-Content -Raw 'server/metrics/__init__.py'",
      'pwsh -NoLogo -NoProfile -Command "Get-Content -Raw .specify/templates/plan-template.md"',
      'cmd /c type apps\\web\\components\\badge.tsx',
      'type README.md',
    ]) {
      expect(printsFilesOnWindows(c), c).toBe(true);
      expect(printsFilesAnyShell(c), c).toBe(true);
    }
  });

  it('should not take a pipe, an assignment, a method call, a chain, a redirect, a wildcard or a build output for one', () => {
    for (const c of [
      'Get-Content Core\\Streamer.swift | Select-Object -Skip 520 -First 200',
      "$t = Get-Content -Raw page.html; $t -replace 'a','b' | Set-Content page.html",
      "(Get-Content -Raw tasks.md).Replace('- [ ] T040','- [x] T040') | Set-Content tasks.md",
      'cmd /c type apps\\web\\badge.tsx 2>nul || echo missing',
      'type a.txt > b.txt',
      'Get-Content *.md',
      'Get-Content $env:USERPROFILE\\notes.txt',
      'Get-Content dist\\app.js',
      'type build\\out.log',
      'Get-Content -Wait server.log',
      'Get-Content',
    ]) {
      expect(printsFilesOnWindows(c), c).toBe(false);
    }
  });
});
