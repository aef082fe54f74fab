/**
 * Shell commands that ask the workspace or the environment for its state and change nothing: a status or
 * prerequisite check (spec-kit's `.specify/scripts/bash/check-prerequisites.sh --json`, `./scripts/status.sh`,
 * `flutter doctor`, `git status`, `gh auth status`). Its answer is neither a pass nor a failure: it reports
 * what is there. Re-run after the workspace changed, it is a look at the new state, as a test re-run after
 * an edit is, even when it reports the same things (the files it lists are still there); unlike a
 * reproduction script printing the same behaviour after each edit, whose answer is what the edits were to
 * change (src/policy/evidence-screen.ts reads both).
 *
 * A command is a status query when its program (src/text/command-program.ts; for an interpreter, `bash x.sh`,
 * `python3 x.py`, the script it runs) is
 * ```
 *   a script named for a state:  check-prerequisites.sh, status.sh, preflight.py, env_check.sh, doctor
 *   a program's status command:  git status, gh auth status, supabase status, flutter doctor
 *   a task tracker's look:       bd ready, bd blocked, bd list, bd show
 *   a look at the world:         gh run list, gh pr checks, gh issue view 4, ps, nvidia-smi, docker ps,
 *                                kubectl get pods, curl -s http://localhost:3000/  (world-look.ts)
 * ```
 * and nothing else runs after it (`&&`, `||`, `;`: a pipe into `head` or `jq` is still the query) but
 * commands that report where the work stands ({@link STATE_INFO}: `git rev-parse --abbrev-ref HEAD`, `git
 * remote -v`). Reads at most {@link STATUS_LOOK} characters.
 */
import { commandProgram } from './command-program.js';
import { MAY_LOOK, looksAtTheWorld } from './world-look.js';

/** Characters of a command read at most (a status query is a short command). */
export const STATUS_LOOK = 512;

/** Words that name a state report by themselves (a script's name split at `-`, `_`, `.`). */
const STATE_WORDS: ReadonlySet<string> = new Set(['status', 'prereq', 'prereqs', 'prerequisite', 'prerequisites', 'doctor', 'preflight', 'healthcheck']);

/** What a `check` or `verify` script checks when it reports the environment rather than the work. */
const ENV_WORDS: ReadonlySet<string> = new Set(['env', 'environment', 'setup', 'deps', 'dependencies', 'tools', 'requirements', 'install', 'installation', 'config', 'health']);

/** Programs that run a script named by their next word (`bash x.sh`, `python3 x.py`, `node x.mjs`). */
const INTERPRETERS: ReadonlySet<string> = new Set(['bash', 'sh', 'zsh', 'dash', 'python', 'python3', 'node', 'pwsh', 'powershell', 'ruby', 'perl']);

/** A cheap look first: a command naming none of these words is no status query. */
const MAY_QUERY = /status|prereq|doctor|preflight|health|check|verify/i;

/** A program's status command: up to two subcommand words, then `status` or `doctor` (`gh auth status`). */
const STATUS_SUBCOMMAND = /^(?:[a-z][\w-]*\s+){0,2}(?:status|doctor)(?=\s|$)/;

/**
 * A task tracker's look at its records: beads' `bd ready`, `bd blocked`, `bd list`, `bd show`, `bd stats`
 * (what is open, ready or blocked now). Asked again after `bd update`, `bd close`, `bd dep remove`
 * (workspace-changes.ts's tracker writes), it is a look at the new state, as `git status` after an edit is.
 */
const TRACKER_LOOK = /^(?:ready|blocked|list|show|stats)(?=\s|$)/;

/** A cheap look first for {@link TRACKER_LOOK}: `bd` as a word. */
const MAY_TRACK = /(?:^|[\s;&|(/])bd\s/;

/** Commands run after the first one: its answer is then not the query's alone. */
const ANOTHER_COMMAND = /&&|\|\||;/;

/**
 * Commands that report where the work stands and change nothing, chained after a status query (`git status
 * -s && git rev-parse --abbrev-ref HEAD && git remote -v`): the branch, the remotes, the last commits, the
 * folder; and `true` (`which -a x || true`: the exit status made 0, the answer the query's). The chain's answer
 * is still a report of the state.
 */
const STATE_INFO = /^\s*(?:true|git\s+(?:rev-parse\s+(?:--abbrev-ref|--show-toplevel|--short|HEAD)[^|<>]*|remote(?:\s+-v)?|branch\s+(?:--show-current|-vv?)|log\s+(?:-\d+|-n\s*\d+)(?:\s+--?[\w=-]+)*)|pwd)\s*['"]?\s*$/;

/** The commands of a chain (`a && b; c || d`), at most this many. */
const MAX_CHAINED = 6;

/**
 * Whether a command is a status query followed only by commands of {@link STATE_INFO} (each part split at
 * `&&`, `||`, `;`; the first the query).
 */
function chainedStatus(c: string): boolean {
  const parts = c.split(/&&|\|\||;/);
  if (parts.length > MAX_CHAINED) return false;
  const [first, ...rest] = parts;
  return first !== undefined && rest.length > 0 && rest.every((p) => STATE_INFO.test(p)) && queriesStatus(first);
}

/** Whether a shell command asks for the state of the workspace or environment (see the file's comment). */
export function queriesStatus(command: string): boolean {
  const c = command.length > STATUS_LOOK ? command.slice(0, STATUS_LOOK) : command;
  if (!MAY_QUERY.test(c) && !MAY_TRACK.test(c) && !MAY_LOOK.test(c)) return false;
  const program = commandProgram(c);
  if (program === undefined) return false;
  // the rest of the command from the program's name on (the wrappers before it passed over)
  const at = wordAt(c, program);
  if (at < 0) return false;
  const rest = c.slice(at + program.length);
  if (ANOTHER_COMMAND.test(rest)) return chainedStatus(c);
  const args = rest.trimStart();
  if (program === 'bd') return TRACKER_LOOK.test(args);
  if (looksAtTheWorld(program, args)) return true;
  if (INTERPRETERS.has(program)) {
    const script = /^(?:-\S+\s+)*([^\s;&|'"]+)/.exec(args)?.[1];
    return script !== undefined && !script.startsWith('-') && namesAState(script);
  }
  return namesAState(program) || STATUS_SUBCOMMAND.test(args);
}

/** Where `word` first stands in `c` as a word of its own (a path may end in it), or -1. */
function wordAt(c: string, word: string): number {
  for (let at = c.indexOf(word); at >= 0; at = c.indexOf(word, at + 1)) {
    const before = at === 0 ? ' ' : (c[at - 1] as string);
    const after = at + word.length >= c.length ? ' ' : (c[at + word.length] as string);
    if (/[\s/'"(]/.test(before) && /[\s'")|]/.test(after)) return at;
  }
  return -1;
}

/** Whether a script's or program's name (its folder and extension aside) names a state report. */
function namesAState(name: string): boolean {
  const base = name.slice(name.lastIndexOf('/') + 1).replace(/\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|ps1|rb|pl)$/i, '');
  const words = base.toLowerCase().split(/[-_.]+/);
  if (words.some((w) => STATE_WORDS.has(w))) return true;
  return words.some((w) => w === 'check' || w === 'verify') && words.some((w) => ENV_WORDS.has(w));
}
