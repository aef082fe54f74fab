/**
 * A setup check run again at the start of each phase of work, dozens of calls apart, is no loop. Real
 * sessions (Codex CLI running spec-kit's implement step once per phase) run `check-prerequisites.sh
 * --json` and a checklist-status script at the start of each phase, the same answers each time, about a
 * hundred calls apart: the third time, both were state repeats, the first warned and (one stalled verdict
 * climbing two rungs) the second broken. None of their earlier runs was still in the call log: the span
 * between was other work the policy no longer sees, as for a failure recurring over such a span, so such a
 * repetition climbs at `interleavedStep`. The stuck twin still fires: the same checks run again and
 * again with their earlier runs kept.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, flaggedActions } from './helpers/verdicts.js';

const ROOT = '/srv/wallet';
const sh = (cmd: string, out: string): ToolEvent => ({ tool: 'shell', args: { command: ['bash', '-lc', cmd], workdir: ROOT }, result: out });
const PREREQ = sh('.specify/scripts/bash/check-prerequisites.sh --json --require-tasks --include-tasks', `{"FEATURE_DIR":"${ROOT}/specs/001-wallet","AVAILABLE_DOCS":["data-model.md","plan.md","tasks.md"]}\n`);
const STATUS = sh("python3 - <<'PY'\nimport os, re\nfor f in os.listdir('specs/001-wallet/checklists'):\n    print(f)\nPY", '| Checklist | Total | Completed | Incomplete | Status |\n|---|---|---|---|---|\n| requirements.md | 16 | 16 | 0 | ✓ PASS |\n');

/** A phase of work: the setup checks, then `n` calls reading and editing files of its own. */
function phase(p: number, n: number): ToolEvent[] {
  const work: ToolEvent[] = [];
  for (let k = 0; k < n; k++) {
    const file = `backend/internal/phase${p}/part${k}.go`;
    if (k % 3 === 2) work.push({ tool: 'apply_patch', args: { input: `*** Begin Patch\n*** Add File: ${ROOT}/${file}\n+package phase${p}\n*** End Patch` }, result: `Success. Updated the following files:\nA ${ROOT}/${file}\n` });
    else work.push(sh(`nl -ba ${file.replace(`part${k}`, `model${k}`)} | sed -n '1,120p'`, `     1\tpackage phase${p}\n     2\t// model ${k} of phase ${p}\n`));
  }
  return [PREREQ, STATUS, ...work];
}
const phases: ToolEvent[] = [...phase(1, 60), ...phase(2, 60), ...phase(3, 60), ...phase(4, 60)];

/** The same checks again and again, a few reads between. */
const stuck: ToolEvent[] = Array.from({ length: 5 }, (_, k) => [PREREQ, STATUS, sh(`sed -n '${k * 10 + 1},${k * 10 + 10}p' specs/001-wallet/tasks.md`, `- [ ] T00${k} task ${k}\n`)]).flat();

describe.each(ENGINES)('setup checks run again at the start of each phase (%s engine)', (engine) => {
  it('should not break the session, one-phase', () => {
    expect(flaggedActions(phases, engine)).not.toContain('break');
  });

  it('should still break the same checks run again and again close together', () => {
    expect(flaggedActions(stuck, engine)).toContain('break');
  });
});
