/**
 * uv running a program its environment does not hold: `uv run ruff check .` answers "error: Failed to spawn:
 * `ruff`" and "Caused by: No such file or directory (os error 2)": the program never ran, as a shell's "ruff:
 * command not found" (src/text/missing-program.ts). devset 019b55c1 (Codex) ran `uv run ruff check .` and
 * `uv run pytest` (both missing), `uv sync` (which installs no dev tools), `uv run ruff check .` again: masked,
 * the two messages are one class ("Failed to spawn: <q>"), so a dead end warned at the third; the next call
 * (`uv run --with ruff ruff check .`) was the way out. Different programs not there are probes finding nothing;
 * the same missing program run again and again is still broken by the detectors of repeated calls, and a spawn
 * refused for another cause (Permission denied) is a real failure.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { saysProgramMissing } from '../src/text/missing-program.js';
import { ENGINES, flaggedActions, liveActions, verdictsOf } from './helpers/verdicts.js';

const SPAWN = (program: string): string => `error: Failed to spawn: \`${program}\`\n  Caused by: No such file or directory (os error 2)\n`;
const shell = (command: string, out: string, failed: boolean): ToolEvent => ({ tool: 'shell_command', args: { command, workdir: '/home/dev/voice/backend' }, result: out, ...(failed ? { error: out } : {}) });

/** devset 019b55c1's calls #245-#251, as the Codex reader gives them. */
const lintThenTests: ToolEvent[] = [
  { tool: 'apply_patch', args: { input: '*** Begin Patch\n*** Update File: /home/dev/voice/specs/quickstart.md\n-a\n+b\n*** End Patch' }, result: 'Success. Updated the following files:\nM /home/dev/voice/specs/quickstart.md' },
  shell("python3 - <<'PY'\nprint(1)\nPY", '', false),
  shell('uv run ruff check .', SPAWN('ruff'), true),
  shell('uv run pytest', SPAWN('pytest'), true),
  shell('uv sync', 'Resolved 29 packages in 0.66ms\nAudited 21 packages in 0.22ms\n', false),
  shell('uv run ruff check .', SPAWN('ruff'), true),
  shell('uv run --with ruff ruff check .', 'All checks passed!\n', false),
];

/** The same missing program run again and again. */
const sameMissing: ToolEvent[] = Array.from({ length: 6 }, () => shell('uv run ruff check .', SPAWN('ruff'), true));

describe('uv saying a program is not there', () => {
  it('should read the spawn failure whose cause is a missing file as a missing program', () => {
    expect(saysProgramMissing(SPAWN('ruff'))).toBe(true);
    expect(saysProgramMissing(`Exit code: 2\n${SPAWN('pytest')}`)).toBe(true);
  });

  it('should read another cause, or output beside it, as a real failure', () => {
    expect(saysProgramMissing('error: Failed to spawn: `ruff`\n  Caused by: Permission denied (os error 13)\n')).toBe(false);
    expect(saysProgramMissing(`${SPAWN('ruff')}Warning: 9 uncommitted changes\n`)).toBe(false);
    expect(saysProgramMissing('Caused by: No such file or directory (os error 2)\n')).toBe(false);
  });
});

describe.each(ENGINES)('uv run of programs not installed (%s engine)', (engine) => {
  it('should see no dead end in two programs missing, a sync between', () => {
    // (these seven calls alone are still similar enough for semantic's warning at the last `uv run ruff`; in the
    // session, with its 244 calls before, the first warning moved from this dead end to #281's state repeat)
    expect(verdictsOf(lintThenTests, { engine }).filter((v) => v?.kind === 'dead_end' || v?.signals.some((s) => s.kind === 'dead_end'))).toEqual([]);
  });

  it('should still break the same missing program run again and again', () => {
    expect(flaggedActions(sameMissing, engine)).toContain('break');
    expect(liveActions(sameMissing, engine)).toContain('deny');
  });
});
