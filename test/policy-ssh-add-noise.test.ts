/**
 * ssh-add run by a startup file prints "Identity added: <key> (<comment>)" ahead of every command's output
 * (holdout4 kozakana 019c4aff, Codex CLI on macOS). A probe that found nothing then printed that line alone:
 * read as its output, the searches for a `specs` folder (find, find deeper, find under .specify) and the
 * branch listings had the same non-empty result each time, so they were stalled (semantic warning at #12,
 * result repeat at #16 and #17). Set aside (src/text/shell-noise.ts), such a result is empty, as the
 * command's own output is: both engines read it so (src/session/observe-event.ts isBlank, assembly/event.ts).
 * The same startup file without an agent to reach (a sandbox forbidding its socket) prints "Error connecting
 * to agent: Operation not permitted" instead (the same session, 13 outputs; OpenSSH before 8.9: "Could not
 * open a connection to your authentication agent."): a startup line as well.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const SSH_ADD = 'Identity added: /Users/goki/.ssh/id_rsa_github (/Users/goki/.ssh/id_rsa_github)\n';
const WORKDIR = '/Users/goki/Documents/app/ticker-box';
/** A Codex shell_command in the project whose output is `out`, ssh-add's line first (or last: interleaved stderr). */
const sh = (command: string, out: string, last = false): ToolEvent => ({ tool: 'shell_command', args: { command, workdir: WORKDIR }, result: last ? `${out}${SSH_ADD}` : `${SSH_ADD}${out}` });
/** ssh-add's lines when the startup file's ssh-add reaches no agent. */
const NO_AGENT = ['Error connecting to agent: Operation not permitted\n', 'Could not open a connection to your authentication agent.\r\n'];

/** Looking for the specs folder a spec-kit script should have made, then for its branch (the session's #8-#18). */
const session: ToolEvent[] = [
  sh('ls -1', ''),
  sh('find . -maxdepth 2 -type d -name specs', ''),
  sh('find . -maxdepth 4 -type d -name specs', ''),
  sh('ls -a', '.\n..\n.codex\n.git\n.specify\n', true),
  sh('find .specify -maxdepth 3 -type d -name specs', ''),
  sh('git status -sb', '## No commits yet on main...origin/main [gone]\n?? .codex/\n?? .specify/\n', true),
  sh('git branch --show-current', 'main\n', true),
  sh('git branch', ''),
  sh('git branch -a', ''),
  sh('find .specify -maxdepth 4 -type f -name "*.md"', '.specify/memory/constitution.md\n.specify/templates/spec-template.md\n', true),
];

describe.each(ENGINES)("probes that printed nothing but ssh-add's line (%s engine)", (engine) => {
  it('should not be read as the same result again and again', () => {
    expect(flaggedActions(session, engine)).toEqual([]);
    expect(liveActions(session, engine)).toEqual([]);
  });

  it('should still flag the same search repeated, each finding nothing, after that line', () => {
    const again = Array.from({ length: 8 }, () => sh('find . -maxdepth 2 -type d -name specs', ''));
    expect(flaggedActions(again, engine)).toContain('break');
  });

  it.each(NO_AGENT)('should read %j (ssh-add reaching no agent) as a startup line too: searches finding nothing are no dead end', (line) => {
    /** A search exiting 1 without output of its own, the line ahead of it. */
    const rg = (q: string): ToolEvent => ({ tool: 'shell_command', args: { command: `rg -n '${q}' specs .specify`, workdir: WORKDIR }, result: line, error: 'Exit code: 1' });
    const searches = ['watchlist', 'performance', 'FEATURE_DIR', 'BRANCH_NAME', 'spec.md'].map(rg);
    expect(flaggedActions(searches, engine)).toEqual([]);
    expect(liveActions(searches, engine)).toEqual([]);
    expect(flaggedActions(Array.from({ length: 8 }, () => rg('watchlist')), engine)).toContain('break');
  });
});
