/**
 * `loopwatch explain SESSION [paths... | -]`: reads recorded trajectories, keeps the calls of one session,
 * runs them through one LoopDetector and prints, call by call, what loopwatch says and why (or `--json`).
 * With no paths it reads standard input when that is not a terminal; a labels file in a folder given is not
 * read as a trace (the rule scan follows, `labelsBeside`). A session is its file and its id: an id
 * found in several inputs is refused, naming them. Exit code 0, or 2 on usage errors (an unknown or
 * ambiguous session among them) or when input was skipped.
 */
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FORMAT_NAMES, type FormatName, readInputs } from '../formats/read-inputs.js';
import { LABELS_FILE_NAME, isRegularFile, readSessionLabels } from '../formats/session-labels.js';
import type { TraceCall, TraceItem } from '../formats/trace-record.js';
import { detectionOptions } from './detection-options.js';
import { choiceFlag, integerFlag, parseFlags, stringOf } from './flags.js';
import { type Shown, shownOutput } from './redaction.js';
import { labelsBeside } from './scan/scan-labels.js';
import { type ExplainContext, type ExplainRow, aroundVerdicts, callLines, explainJson, footerLines } from './render/explain-text.js';
import type { CommandIo } from './scan-command.js';
import { SessionReplay } from './session-replay.js';
import { cutText } from '../text/shown-text.js';
import { terminalSafe } from '../text/terminal-text.js';
import { UsageError } from './usage-error.js';

/** Session ids suggested when the one asked for is not in the input. */
export const MAX_SUGGESTIONS = 5;
/** Terminal width assumed when standard output reports none. */
export const DEFAULT_COLUMNS = 120;
/** Characters of a session id or file shown in the header and in messages. */
export const SHOWN_ID_LENGTH = 256;

/** Options of an explain run, parsed and checked. */
export interface ExplainSettings {
  readonly session: string;
  readonly paths: readonly string[];
  readonly format: FormatName | undefined;
  readonly preset: string | undefined;
  readonly config: string | undefined;
  /** Show only calls within this many of a verdict; null shows every call. */
  readonly around: number | null;
  readonly json: boolean;
  /** Print the calls, outcomes, verdicts and messages about skipped input as they are (`--no-redact`). */
  readonly noRedact: boolean;
}

/** Parses `loopwatch explain` arguments (no paths: standard input, unless it is a terminal). Throws UsageError. */
export function parseExplainArgs(args: readonly string[], stdinIsTty = true): ExplainSettings {
  const parsed = parseFlags(
    args,
    { format: { type: 'string' }, preset: { type: 'string' }, config: { type: 'string' }, all: { type: 'boolean' }, around: { type: 'string' }, json: { type: 'boolean' }, 'no-redact': { type: 'boolean' } },
    true,
  );
  const v = parsed.values;
  const [session, ...given] = parsed.positionals;
  if (session === undefined || session === '') throw new UsageError('name the session to explain: loopwatch explain SESSION [paths... | -]');
  const format = v.format === undefined ? undefined : choiceFlag('--format', stringOf(v, 'format'), 'events', FORMAT_NAMES);
  if (v.all === true && v.around !== undefined) throw new UsageError('--all and --around cannot be used together');
  const around = v.around === undefined ? null : integerFlag('--around', stringOf(v, 'around'), 0, 0);
  if (given.length === 0 && stdinIsTty) throw new UsageError('no input: give files or folders, or - (or pipe input) to read standard input');
  const paths = given.length === 0 ? ['-'] : given;
  return { session, paths, format, preset: stringOf(v, 'preset'), config: stringOf(v, 'config'), around, json: v.json === true, noRedact: v['no-redact'] === true };
}

/**
 * The session's calls in `items` (of the first input that has it), the inputs that have it, the ids that
 * contain `session` (to suggest) and the skipped inputs.
 */
async function collect(items: AsyncIterable<TraceItem>, session: string, io: CommandIo, shown: Shown): Promise<{ calls: TraceCall[]; files: string[]; similar: string[]; seen: string[]; issues: number }> {
  const calls: TraceCall[] = [];
  const files: string[] = [];
  const similar = new Set<string>();
  const seen = new Set<string>();
  const needle = session.toLowerCase();
  let issues = 0;
  for await (const item of items) {
    if (item.kind === 'issue') {
      issues++;
      io.stderr.write(`${terminalSafe(item.file)}${item.line > 0 ? `:${item.line}` : ''}: skipped (${item.code}): ${terminalSafe(shown.text(item.message))}\n`);
    } else if (item.kind === 'note') {
      io.stderr.write(`${terminalSafe(item.file)}${item.line > 0 ? `:${item.line}` : ''}: ${terminalSafe(shown.text(item.message))}\n`);
    } else if (item.kind === 'call') {
      if (item.session === session) {
        if (!files.includes(item.file)) files.push(item.file);
        if (item.file === files[0]) calls.push(item);
      }
      else if (similar.size < MAX_SUGGESTIONS && item.session.toLowerCase().includes(needle)) similar.add(item.session);
      if (seen.size < MAX_SUGGESTIONS) seen.add(item.session);
    }
  }
  return { calls, files, similar: [...similar], seen: [...seen], issues };
}

/** Each call checked in order by one detector, as rows; a call the detector refuses is reported and shown without a verdict. */
function explainCalls(calls: readonly TraceCall[], shown: Shown, io: CommandIo): { rows: ExplainRow[]; refused: number } {
  const replay = new SessionReplay(shown.options, calls[0]?.session);
  let refused = 0;
  const rows = calls.map((c): ExplainRow => {
    const r = replay.next(c);
    if (r.refused !== null) {
      refused++;
      io.stderr.write(`${terminalSafe(c.file)}:${c.line}: not checked: ${terminalSafe(shown.text(r.refused.message))}\n`);
    }
    const row = r.row;
    return { ...row, tool: shown.tool(row.tool), args: shown.text(row.args), outcome: shown.text(row.outcome) };
  });
  return { rows, refused };
}

/** The session's agent and exit status from a labels file (`sessions.jsonl`) beside the first input, when it names it. */
async function sessionContext(paths: readonly string[], session: string): Promise<ExplainContext> {
  const first = paths[0];
  if (first === undefined || first === '-') return {};
  let dir: string;
  try {
    dir = statSync(first).isDirectory() ? first : dirname(first);
  } catch {
    return {};
  }
  // a missing or unreadable file has no labels: nothing to add; nor has a FIFO or device under the name
  const file = join(dir, LABELS_FILE_NAME);
  if (!isRegularFile(file)) return {};
  const label = (await readSessionLabels(file)).labels.get(session);
  if (label === undefined) return {};
  return { ...(label.agent === null ? {} : { agent: label.agent }), exitStatus: label.label };
}

/** `loopwatch explain`: resolves to the exit code. */
export async function explainCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const s = parseExplainArgs(args, io.stdin.isTTY === true);
  const output = shownOutput(detectionOptions(s.preset, s.config), s.noRedact); // usage errors before any input is read
  // a labels file in a folder given (sessions.jsonl) is passed over, as scan passes over it: labels, not a trace
  const ignore = await labelsBeside(s.paths);
  const items = readInputs(s.paths, { ...(s.format === undefined ? {} : { format: s.format }), stdin: io.stdin, ignore });
  const { calls, files, similar, seen, issues } = await collect(items, s.session, io, output);
  /** An id or file as a message shows it: cut, redacted, controls as escapes. */
  const id = (text: string): string => terminalSafe(output.text(cutText(text, SHOWN_ID_LENGTH)));
  if (files.length > 1) {
    throw new UsageError(`session "${id(s.session)}" is in ${files.length} inputs (${files.map(id).join(', ')}); a session is its file and its id: give the one to explain as the path`);
  }
  if (calls.length === 0) {
    const hint = similar.length > 0 ? `sessions whose id contains it: ${similar.map(id).join(', ')}` : seen.length > 0 ? `no session id contains it; sessions read include: ${seen.map(id).join(', ')}` : 'no calls were read at all';
    throw new UsageError(`no calls of session "${id(s.session)}" in ${s.paths.map(id).join(', ')}; ${hint}`);
  }
  const { rows, refused } = explainCalls(calls, output, io);
  const shown = s.around === null ? rows : aroundVerdicts(rows, s.around);
  if (s.json) io.stdout.write(explainJson(shown) + '\n');
  else {
    const width = (io.stdout as { columns?: number }).columns ?? DEFAULT_COLUMNS;
    const head = `loopwatch explain: session ${id(s.session)}, ${rows.length} call${rows.length === 1 ? '' : 's'} from ${id(files[0] ?? '')}`;
    const context = await sessionContext(s.paths, s.session);
    const labelled = { ...(context.agent === undefined ? {} : { agent: output.text(context.agent) }), ...(context.exitStatus === undefined ? {} : { exitStatus: output.text(context.exitStatus) }) };
    io.stdout.write([head, '', ...callLines(shown, rows.length, width), '', ...footerLines(rows, labelled)].join('\n') + '\n');
  }
  const skipped = issues + refused;
  if (skipped > 0) io.stderr.write(`loopwatch: ${skipped} ${skipped === 1 ? 'line, element, input or call was' : 'lines, elements, inputs or calls were'} skipped (named above); exit code 2\n`);
  return skipped > 0 ? 2 : 0;
}
