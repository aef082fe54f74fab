/**
 * A look at the state right after new work checks that work: it is not broken (quiet9; holdout4 lewislpz
 * 019ce2c4, Codex: `docs/commands.md` patched, the same patch again, another, each followed by `cat` of the
 * file, the same text each time, warned rightly at #13 and #16; then the file deleted and written anew, and
 * the `cat` after that broken one-phase and blocked two-phase at #21). The call reports the state (a file
 * read, a status query: src/text/file-read.ts, status-query.ts) and a successful change not made before came
 * after its previous run: at most a warning (src/policy/evidence-screen.ts looksAtNewWork, read in
 * verdict-policy.ts). The stuck twin still breaks: the same patch again and again, the same read after each.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, actionsOf, flaggedActions, liveActions, verdictsOf } from './helpers/verdicts.js';

const FILE = 'docs/commands.md';
const TEXT = '# Commands\n\n## Dry-Run Workflow\n\n1. Run `/think` to generate a plan\n\n## Operational Guidance\n\n- Use a feature branch\n';
const cat = (text = TEXT): ToolEvent => ({ tool: 'exec_command', args: { cmd: `cat ${FILE}` }, result: text });
const patch = (from: string, to: string): ToolEvent => ({ tool: 'apply_patch', args: { input: `*** Begin Patch\n*** Update File: ${FILE}\n@@\n-${from}\n+${to}\n*** End Patch` }, result: `Success. Updated the following files:\nM ${FILE}\n` });
const sh = (cmd: string, out: string): ToolEvent => ({ tool: 'exec_command', args: { cmd }, result: out });

const session: ToolEvent[] = [
  sh('pwd', '/Users/lewis/CartApp\n'),
  sh("sed -n '1,200p' docs/commands.md", TEXT),
  cat(),
  patch('## Operational Guidance', '-## Operational Guidance'),
  cat(),
  patch('## Operational Guidance', '-## Operational Guidance'),
  cat(),
  sh("python3 - <<'PY'\nfrom pathlib import Path\nprint(Path('docs/commands.md').read_text())\nPY", TEXT),
  patch('-## Operational Guidance', '## Operational Guidance'),
  cat(),
  sh("python3 - <<'PY'\nfrom pathlib import Path\nprint(repr(Path('docs/commands.md').read_text()))\nPY", JSON.stringify(TEXT)),
  sh('git status -sb', '## main...origin/main\n?? docs/\n'),
  { tool: 'apply_patch', args: { input: `*** Begin Patch\n*** Delete File: ${FILE}\n*** End Patch` }, result: `Success. Updated the following files:\nD ${FILE}\n` },
  { tool: 'apply_patch', args: { input: `*** Begin Patch\n*** Add File: ${FILE}\n+# Commands\n+\n+## Operational Guidance\n*** End Patch` }, result: `Success. Updated the following files:\nA ${FILE}\n` },
  cat('# Commands\n\n## Operational Guidance\n'),
  sh('git status -sb', '## main...origin/main\n?? docs/\n'),
];

/** The same patch again and again, the same read after each. */
const stuck: ToolEvent[] = [cat(), ...Array.from({ length: 6 }, () => [patch('## Operational Guidance', '-## Operational Guidance'), cat()]).flat()];

describe.each(ENGINES)('a file read right after new work (%s engine)', (engine) => {
  /** The read after the file was deleted and written anew. */
  const READ = session.length - 2;

  it('should not break the read after the file was written anew, one-phase', () => {
    const actions = actionsOf(verdictsOf(session, { engine }));
    expect(actions).toContain('warn');
    expect(actions[READ]).not.toBe('break');
  });

  it('should not block that read, two-phase', () => {
    expect(liveActions(session, engine, { labelled: true }).filter((a) => a.endsWith('deny') || a.endsWith('stop'))).toEqual([]);
  });

  it('should give the same verdicts in a session that only checks after the fact (checksOnly: scan, eval)', () => {
    // such a session reads the checked call's STATUS at its screen (checked-call-clean.ts), so looksAtNewWork must too
    for (const events of [session, stuck]) {
      expect(JSON.stringify(verdictsOf(events, { engine }, { checksOnly: true }))).toBe(JSON.stringify(verdictsOf(events, { engine })));
    }
  });

  it('should still break the same patch and read again and again', () => {
    expect(flaggedActions(stuck, engine)).toContain('break');
  });
});
