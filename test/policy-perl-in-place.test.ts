/**
 * `perl -0pi -e` edits a file in place, as `perl -pi` and `sed -i` do (quiet13; a real Codex session of
 * holdout3, broken one-phase at #20): a spec written, then reworded twice with `perl -0pi -e 's/.../.../g'
 * requirements.md`, the file read after each (`cat requirements.md`) with a search between. The in-place
 * pattern (src/policy/workspace-changes.ts SHELL_WRITES) read perl's flags as letters only, so `-0pi` (a
 * record separator, a digit, before the `-i`) was no change: the read after the edit looked at no new work,
 * and its fifth run was broken as a repeat. The stuck twin still breaks: the same read again and again with
 * only another read between.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { changesWorkspace } from '../src/policy/workspace-changes.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const REQ = '.kiro/specs/env/requirements.md';
const sh = (cmd: string, out: string): ToolEvent => ({ tool: 'exec_command', args: { cmd }, result: out });
const REQUIREMENT = (k: number, name: string): string =>
  `### Requirement ${k}\n**Objective:** As a developer, I want ${name} to set up the environment, so that I can start work at once.\n\n#### Acceptance Criteria\n1. When the directory is entered, ${name} shall activate Node.js ${k} and Python 3.\n2. When a tool is added, ${name} shall install it.\n\n`;
const text = (n: number): string => {
  if (n === 0) return '# Requirements Document\n\n## Project Description (Input)\nA direnv script that sets up codex, Node.js (by nvm) and Python 3 (by uv)\n\n## Requirements\n<!-- Will be generated in /kiro:spec-requirements phase -->\n';
  const name = n < 2 ? 'the Development Environment Bootstrap System' : n < 3 ? 'the DEVS' : 'The DEVS';
  return `# Requirements Document\n\n## Introduction\nThis spec (${n}) defines ${name}.\n\n## Requirements\n\n${[1, 2, 3, 4, 5].map((k) => REQUIREMENT(k, name)).join('')}`;
};
const cat = (n: number): ToolEvent => sh(`cat ${REQ}`, text(n));
const perl = (from: string, to: string): ToolEvent => sh(`perl -0pi -e 's/${from}/${to}/g' ${REQ}`, '');
const patch = (file: string, body: string): ToolEvent => ({ tool: 'apply_patch', args: `*** Begin Patch\n*** Update File: ${file}\n@@\n${body}\n*** End Patch`, result: `Success. Updated the following files:\nM ${file}\n` });
const SPEC = (phase: string): string => `{\n  "feature_name": "env",\n  "created_at": "2026-02-19T14:18:51+09:00",\n  "phase": "${phase}",\n  "approvals": { "requirements": { "generated": ${phase !== 'initialized'}, "approved": false } }\n}\n`;
const at = (round: number, e: ToolEvent): ToolEvent => ({ ...e, round });

/** The session's first 21 calls, in their model turns. */
const session: ToolEvent[] = [
  at(0, sh('rg --files .kiro/specs/env .kiro/settings/rules', '.kiro/specs/env/spec.json\n.kiro/specs/env/requirements.md\n.kiro/settings/rules/ears-format.md\n')),
  at(0, sh('cat .kiro/specs/env/spec.json', SPEC('initialized'))),
  at(0, cat(0)),
  at(0, sh('cat .kiro/settings/rules/ears-format.md', `# EARS Format Guidelines\n\n${'- When [event], the [system] shall [response]\n'.repeat(20)}`)),
  at(0, sh('cat .kiro/settings/templates/specs/requirements.md', '# Requirements Document\n\n## Introduction\n{{INTRODUCTION}}\n\n## Requirements\n')),
  at(1, sh('date -Iseconds', '2026-02-19T14:21:10+09:00\n')),
  at(1, sh('ls -la .kiro', 'total 16\ndrwxr-xr-x 4 dev dev 4096 settings\ndrwxr-xr-x 3 dev dev 4096 specs\n')),
  at(2, patch(REQ, '-# Requirements Document\n+# Requirements Document\n+## Introduction')),
  at(3, patch('.kiro/specs/env/spec.json', '-  "phase": "initialized",\n+  "phase": "requirements-generated",')),
  at(4, cat(1)),
  at(4, sh('cat .kiro/specs/env/spec.json', SPEC('requirements-generated'))),
  at(6, cat(1)),
  at(6, sh('ls -la .kiro/specs/env', 'total 20\n-rw-r--r-- 1 dev dev 2548 requirements.md\n-rw-r--r-- 1 dev dev 522 spec.json\n')),
  at(7, { tool: 'apply_patch', args: '*** Begin Patch\n*** Add File: .kiro/specs/env/glossary.md\n+# Glossary\n*** End Patch', result: 'Success. Updated the following files:\nA .kiro/specs/env/glossary.md\n' }),
  at(8, perl('the Development Environment Bootstrap System', 'the DEVS')),
  at(9, sh('cat .kiro/specs/env/glossary.md', '# Glossary\n\n| Term | Abbreviation |\n| the Development Environment Bootstrap System | DEVS |\n')),
  at(9, cat(2)),
  at(9, sh(`rg -n "Bootstrap System|the DEVS" ${REQ}`, `${REQ}:4:This spec defines the DEVS.\n${REQ}:9:The Development Environment Bootstrap System shall\n`)),
  at(10, perl('The Development Environment Bootstrap System', 'The DEVS')),
  at(11, sh(`rg -n "Bootstrap System|the DEVS|The DEVS" ${REQ}`, `${REQ}:4:This spec defines the DEVS.\n${REQ}:9:The DEVS shall\n`)),
  at(11, cat(3)),
];

/** The same read again and again, only another read between. */
const stuck: ToolEvent[] = [1, 2, 3, 4, 5, 6].flatMap(() => [sh('cat .kiro/specs/env/spec.json', SPEC('initialized')), cat(1)]);

describe.each(ENGINES)('a file read again after `perl -0pi -e` edits of it (%s engine)', (engine) => {
  it('should not break the read after the edit, one-phase', () => {
    expect(flaggedActions(session, engine)).not.toContain('break');
  });

  it('should not block it, two-phase', () => {
    expect(liveActions(session, engine)).not.toContain('deny');
  });

  it('should still break the same read again and again with only another read between', () => {
    expect(flaggedActions(stuck, engine)).toContain('break');
  });
});

describe('in-place edits', () => {
  const cmd = (c: string): boolean => changesWorkspace('exec_command', { cmd: c });

  it('should read perl and sed in-place edits as changes, whatever flags come before the -i', () => {
    for (const c of ["perl -0pi -e 's/a/b/g' f.md", "perl -0777 -pi -e 's/a/b/s' f.md", "perl -pi -e 's/a/b/' f", "perl -i -pe 's/a/b/' f", "perl -pi.bak -e 's/a/b/' f", "perl -lpi -e 's/a/b/' f", "sed -i 's/a/b/' f", "sed -E -i '' 's/a/b/' f", "sed -i.bak 's/a/b/' f"]) {
      expect(cmd(c), c).toBe(true);
    }
  });

  it('should not read perl or sed printing as a change', () => {
    for (const c of ["perl -0ne 'print if /a/' f.md", "perl -0777 -ne 'print $1 if /(x)/s' f", "sed -n '1,20p' f", "sed -E 's/a/b/' f", "perl -e 'print 1'"]) {
      expect(cmd(c), c).toBe(false);
    }
  });
});
