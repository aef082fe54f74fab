/**
 * An interpreter's inline script that writes a file is a change of the workspace (quiet9; holdout4 MoonMind
 * 019a802a, Codex on WSL: spec-kit's scripts checked out with CRLF line ends fail with `$'\r': command not
 * found`; the agent strips them with `python3 - <<'PY'` ... `path.write_text(...)`, one file, then every
 * script, and runs the prerequisite script again after each: blocked two-phase at #7, the run after the
 * second fix). The script's write was not read as one (only `sed -i`, `perl -pi`, redirects, `tee`...), so
 * the re-runs seemed to follow nothing done (src/policy/workspace-changes.ts SHELL_WRITES). The stuck twin
 * still fires: the same script failing again with only reads between.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { changesWorkspace } from '../src/policy/workspace-changes.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

/** A Codex shell call; a failure's output is its result and its error, as the reader gives an exit code other than 0. */
const sh = (command: string, out: string, failed = false): ToolEvent => ({ tool: 'shell', args: { command: ['bash', '-lc', command], workdir: '/mnt/d/ai/MoonMind' }, result: out, ...(failed ? { error: out } : {}) });
const CHECK = '.specify/scripts/bash/check-prerequisites.sh --json';
const fix = (glob: string): string => `python3 - <<'PY'\nfrom pathlib import Path\nfor path in Path('.specify/scripts/bash').glob('${glob}'):\n    path.write_bytes(path.read_bytes().replace(b'\\r\\n', b'\\n'))\nPY`;

/** The CRLF fix, one file, then every script, the check run again after each. */
const crlf: ToolEvent[] = [
  { tool: 'update_plan', args: { plan: [{ status: 'in_progress', step: 'Run prerequisite script to locate feature directory and available docs' }] }, result: 'Plan updated' },
  sh(CHECK, "/usr/bin/env: ‘bash\\r’: No such file or directory\n/usr/bin/env: use -[v]S to pass options in shebang lines", true),
  sh(`bash ${CHECK}`, ".specify/scripts/bash/check-prerequisites.sh: line 2: $'\\r': command not found\n.specify/scripts/bash/check-prerequisites.sh: line 21: $'\\r': command not found", true),
  sh(fix('check-prerequisites.sh').replace('python3', 'python'), 'bash: line 1: python: command not found', true),
  sh(fix('check-prerequisites.sh'), ''),
  sh(CHECK, "/mnt/d/ai/MoonMind/.specify/scripts/bash/common.sh: line 3: $'\\r': command not found", true),
  sh(fix('*.sh'), ''),
  sh(CHECK, 'ERROR: Not on a feature branch. Current branch: main\nFeature branches should be named like: 001-feature-name', true),
  sh('git status -sb', '## main...origin/main\n M .env-template\n'),
  sh('git checkout 005-orchestrator-architecture', "Switched to branch '005-orchestrator-architecture'\n"),
  sh(CHECK, '{"FEATURE_DIR":"/mnt/d/ai/MoonMind/specs/005-orchestrator-architecture","AVAILABLE_DOCS":["research.md"]}\n'),
];

/** The same check failing again and again, only a look at the file between. */
const stuck: ToolEvent[] = Array.from({ length: 5 }, () => [
  sh(`bash ${CHECK}`, ".specify/scripts/bash/check-prerequisites.sh: line 2: $'\\r': command not found", true),
  sh('file -k .specify/scripts/bash/check-prerequisites.sh', '.specify/scripts/bash/check-prerequisites.sh: Bourne-Again shell script, with CRLF line terminators\n'),
]).flat();

describe.each(ENGINES)('a script fixed by an inline python script, then run again (%s engine)', (engine) => {
  it('should not block the run after a fix, two-phase', () => {
    expect(liveActions(crlf, engine)).not.toContain('deny');
  });

  it('should still break the same failure with only reads between', () => {
    expect(flaggedActions(stuck, engine)).toContain('break');
  });
});

describe('inline scripts that write', () => {
  it('should be changes of the workspace', () => {
    for (const c of [fix('*.sh'), "python -c \"open('a.txt', 'w').write('x')\"", 'node -e "require(\'fs\').writeFileSync(\'a.json\', \'{}\')"', "ruby -e \"File.write('a', 'b')\"", "python3 - <<'PY'\nwith open('out.csv', 'a') as f: f.write('x')\nPY"]) {
      expect(changesWorkspace('shell', { command: ['bash', '-lc', c] }), c).toBe(true);
    }
  });

  it('should not take a script that only reads, or a search for the words, for one', () => {
    for (const c of ["python3 - <<'PY'\nfrom pathlib import Path\nprint(repr(Path('a.sh').read_text()[:100]))\nPY", 'rg -n "write_text(" src', "python -c \"print(open('a.txt').read())\"", "python3 -c \"print(open('a.txt', 'r').read())\""]) {
      expect(changesWorkspace('shell', { command: ['bash', '-lc', c] }), c).toBe(false);
    }
  });
});
