/**
 * A file read again at each new step of the work is a look at the state, not a loop (quiet9; holdout4
 * pratham124 019c17d2, Codex spec-kit: `cat .specify/memory/constitution.md` and `cat specs/.../spec.md`
 * after `setup-plan.sh` at each `/speckit` step, new plan, research and task files written between: state
 * repeat warned at #45, broken one-phase at #46, blocked two-phase at #92). A command that only prints files
 * (`cat`, `nl`, `head`, `sed -n 'N,Mp'`: src/text/file-read.ts) answers with their content, the state of
 * the workspace: re-run with a new change between each run, it counts as a status query does (evidence-
 * screen.ts's reportsState). Its content is no report of an outcome either: a spec listing what "FAILED"
 * means was read as a failure (src/policy/outcome-facts.ts). The stuck twins still fire: the same file read
 * with nothing done between, and a build's output (`_build/`) read again after each rebuild, a behaviour the
 * edits were to change.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { printsFiles } from '../src/text/file-read.js';
import { ENGINES, flaggedActions, liveActions, verdictsOf } from './helpers/verdicts.js';

const DIR = '/root/lab/Lab2';
const sh = (command: string, out: string): ToolEvent => ({ tool: 'shell_command', args: { command, workdir: DIR }, result: out });
const CONSTITUTION = '# Lab2 Constitution\n\n## Core Principles\n\n### I. Tests first\nEvery change ships with acceptance tests.\n';
const SPEC = '# Feature Specification: Change Account Password\n\n## Edge Cases\n\n- When the current password is wrong the change FAILED and an error is shown.\n';
const write = (file: string, step: number): ToolEvent => sh(`cat <<'EOF' > ${DIR}/specs/001-change-password/${file}\n# ${file} (step ${step})\nEOF`, '');

/** Each spec-kit step: its prerequisite script, the spec and the constitution read, new files written. */
const steps: ToolEvent[] = [1, 2, 3, 4, 5, 6].flatMap((n) => [
  sh('.specify/scripts/bash/check-prerequisites.sh --json', `{"FEATURE_SPEC":"${DIR}/specs/001-change-password/spec.md","BRANCH":"001-change-password"}\n`),
  sh(`cat ${DIR}/specs/001-change-password/spec.md`, SPEC),
  sh(`cat ${DIR}/.specify/memory/constitution.md`, CONSTITUTION),
  write('plan.md', n),
  write('research.md', n),
  write(`tasks-${n}.md`, n),
]);

/** The constitution read again and again, only the same other read between. */
const stuck: ToolEvent[] = Array.from({ length: 6 }, () => [sh(`cat ${DIR}/.specify/memory/constitution.md`, CONSTITUTION), sh('ls specs', '001-change-password\n')]).flat();

/** A source edit, a rebuild, the build's page read: the same page after every edit (a behaviour unchanged). */
const rebuilds: ToolEvent[] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].flatMap((n) => [
  { tool: 'str_replace_editor', args: { command: 'str_replace', path: '/workspace/sphinx/ext/autodoc/__init__.py', old_str: `members = ${n - 1}`, new_str: `members = ${n}` }, result: 'The file /workspace/sphinx/ext/autodoc/__init__.py has been edited.' },
  sh('cd /workspace/test && rm -rf _build && sphinx-build -b html . _build/html', 'Running Sphinx v3.5.0\nbuild succeeded.\n'),
  sh('cat /workspace/test/_build/html/index.html', '<!DOCTYPE html>\n<dl class="py function"><dt id="example.foo">foo()</dt></dl>\n'),
]);

describe.each(ENGINES)('files read again at each step of the work (%s engine)', (engine) => {
  it('should not break the session, one-phase', () => {
    expect(flaggedActions(steps, engine)).not.toContain('break');
  });

  it('should not block a read, two-phase', () => {
    expect(liveActions(steps, engine)).not.toContain('deny');
  });

  it('should give the same verdicts in a session that only checks after the fact (checksOnly: scan, eval)', () => {
    // such a session reads CLEAN later (CLEAN_LATER), yet a file's printed content is no outcome at once
    for (const events of [steps, stuck, rebuilds]) {
      expect(JSON.stringify(verdictsOf(events, { engine }, { checksOnly: true }))).toBe(JSON.stringify(verdictsOf(events, { engine })));
    }
  });

  it('should still break the same file read with nothing done between', () => {
    expect(flaggedActions(stuck, engine)).toContain('break');
  });

  it("should still break a build's output read after each rebuild, the same each time", () => {
    expect(flaggedActions(rebuilds, engine)).toContain('break');
  });
});

describe('commands that only print files', () => {
  it('should be read whole, through a shell and a change of directory', () => {
    for (const c of ['cat docs/commands.md', 'cat -n a.ts b.ts', 'nl -ba src/a.ts', "sed -n '1,200p' spec.md", 'sed -n 40,80p x.py', 'head -n 40 README.md', 'head -20 a', 'bash -lc cat docs/commands.md', "bash -lc 'cat docs/a.md'", 'cd /repo && cat "my notes.md"']) {
      expect(printsFiles(c), c).toBe(true);
    }
  });

  it('should not take other work, a pipe, a redirect, a glob or a build output for one', () => {
    for (const c of ['cat a | grep x', 'cat a > b', "cat <<'EOF' > plan.md\nx\nEOF", 'cat *.md', 'cat $F', "sed -i 's/a/b/' x", 'sed -n /x/p f', 'head', 'cat', 'cat a && npm test', 'tail -f log', 'cat _build/html/index.html', 'head -n 5 dist/app.js', 'cat target/debug/out.txt', 'cat a; rm b']) {
      expect(printsFiles(c), c).toBe(false);
    }
  });
});
