/**
 * mini-swe-agent trajectories of text-based models (`.traj.json`, `{info, messages, trajectory_format:
 * "mini-swe-agent-1" | "mini-swe-agent-1.1"}`): 1.x wrote every run so, and 2.x does with its text-based
 * models (`litellm_textbased`, ...). The model's command is not a tool call but the one fenced block of its
 * reply (`action_regex`: ```` ```bash ```` in 1.x, ```` ```mswea_bash_command ```` later; 2.x also stores it
 * as `extra.actions: [{command}]`); a reply with no block or several ran nothing, and mini-swe-agent answers
 * it with its format error ("Please always provide EXACTLY ONE action ..., found N actions"): that turn is a
 * call of {@link FORMAT_ERROR_TOOL} with args `{n_blocks: N}` (N as the message says, else the blocks found,
 * at most 2), the message its result and a known failure, as the public traces count it, so a run stuck
 * answering in the wrong format is seen rather than quiet. The command's output is the next `user` message, rendered from the config's
 * template: `<returncode>N</returncode>` at its head (every shipped config) or, in 2.x, `extra.returncode`
 * too (mini-swe-outcome.ts reads it); 1.x's timeout message ("The last command <command>...</command> timed
 * out and has been killed") is a failure. Each command is a call of the tool `bash` with args `{command}`,
 * the reply's text its text (src/minisweagent/agents/default.py and models/utils/actions_text.py, v1.17.5
 * and v2.4.6). A reply's text is looked at up to {@link ACTION_LOOK} characters, scanned once, no regex.
 */
import { Fifo } from './fifo.js';
import { isRecord } from './json-value.js';
import { type ReturnCodeOutcome, returnCodeOutcome } from './mini-swe-outcome.js';
import type { SessionCalls } from './session-calls.js';

/** The tool a command of a text-based model is a call of. */
export const TEXT_ACTION_TOOL = 'bash';
/** The tool a reply the harness refused for its format (no fenced command, or several) is a call of. */
export const FORMAT_ERROR_TOOL = '_format_error';
/** The most characters of a message looked at for its fenced block or its return code. */
export const ACTION_LOOK = 1 << 20;

/** The fences a command is written in (mini-swe-agent's `action_regex` of 1.x and of later configs). */
const FENCES = ['```bash', '```mswea_bash_command'] as const;
const RETURN_CODE = '<returncode>';
const TIMEOUT = 'The last command <command>';
const FORMAT_ERROR = 'Please always provide EXACTLY ONE action';
const FOUND = 'found ';

/** Whether `v` is a mini-swe-agent trajectory, by its `trajectory_format` mark. */
export function isMiniSweTrajectory(v: Readonly<Record<string, unknown>>): boolean {
  return typeof v.trajectory_format === 'string' && v.trajectory_format.startsWith('mini-swe-agent');
}

/** Whether `user` message text `text` is a text-based model's format error ("Please always provide EXACTLY ONE action ..."). */
export function isTextFormatError(text: string): boolean {
  return text.trimStart().startsWith(FORMAT_ERROR);
}

/** The fenced blocks of `text` (at most two: more than one is already a format error), trimmed, as `re.findall(action_regex, text, re.DOTALL)` finds them. */
export function fencedCommands(text: string): string[] {
  const t = text.length > ACTION_LOOK ? text.slice(0, ACTION_LOOK) : text;
  const out: string[] = [];
  let at = 0;
  while (out.length < 2) {
    const i = t.indexOf('```', at);
    if (i < 0) break;
    const fence = FENCES.find((f) => t.startsWith(f, i));
    if (fence === undefined) {
      at = i + 3;
      continue;
    }
    let j = i + fence.length;
    while (t[j] === ' ' || t[j] === '\t' || t[j] === '\r') j++;
    if (t[j] !== '\n') {
      at = j;
      continue;
    }
    const end = t.indexOf('\n```', j + 1);
    if (end < 0) break;
    out.push(t.slice(j + 1, end).trim());
    at = end + 4;
  }
  return out;
}

/** The commands of assistant message `m` (`text` its text): `extra.actions` when it has them, else its one fenced block; none when it has none or several. */
export function textCommands(m: Readonly<Record<string, unknown>>, text: string | undefined): string[] {
  const extra = m.extra;
  if (isRecord(extra) && Array.isArray(extra.actions)) return extra.actions.flatMap((a) => (isRecord(a) && typeof a.command === 'string' ? [a.command] : []));
  const found = text === undefined ? [] : fencedCommands(text);
  return found.length === 1 ? found : [];
}

/** The outcome of an observation `m` (`text` its text): `extra.returncode`, else the `<returncode>` at its head; a timeout a failure. */
export function observationOutcome(m: Readonly<Record<string, unknown>>, text: string): ReturnCodeOutcome {
  const byExtra = returnCodeOutcome(m.extra, text);
  if (byExtra.errorInfo !== 'unknown') return byExtra;
  const head = text.slice(0, 64).trimStart();
  if (head.startsWith(TIMEOUT)) return { errorInfo: 'known', error: text };
  if (!head.startsWith(RETURN_CODE)) return { errorInfo: 'unknown' };
  const close = head.indexOf('</returncode>');
  const code = close < 0 ? NaN : Number(head.slice(RETURN_CODE.length, close));
  if (!Number.isInteger(code)) return { errorInfo: 'unknown' };
  return code === 0 ? { errorInfo: 'absent' } : { errorInfo: 'known', error: text };
}

/** The number of actions a format error says it found ("found N actions"), looked at in its first 200 characters. */
export function statedBlocks(text: string): number | undefined {
  const head = text.slice(0, 200);
  const at = head.indexOf(FOUND);
  if (at < 0) return undefined;
  let i = at + FOUND.length;
  let n = 0;
  const start = i;
  while (i < head.length && head.charCodeAt(i) >= 48 && head.charCodeAt(i) <= 57 && i - start < 6) n = n * 10 + (head.charCodeAt(i++) - 48);
  return i > start && head.startsWith(' action', i) ? n : undefined;
}

/**
 * The text-based turns of one mini-swe-agent trajectory: a reply's commands wait for the `user` messages
 * after it, one each, and are then held in `calls` with their outcome; a format error answers nothing (it
 * follows a reply with no command). Commands left waiting at the end are held without a result.
 */
export class TextTurns {
  /** The commands of the last reply still waiting for their output (a Fifo: `Array.prototype.shift` per output was quadratic in a reply's commands). */
  private readonly waiting = new Fifo<{ command: string; text: string | undefined; round: number }>();
  /** The last reply, when it had no command to run: a format error answers it. */
  private refused: { text: string | undefined; round: number; blocks: number } | null = null;

  constructor(private readonly calls: SessionCalls) {}

  /** Assistant message `m` of round `round`, `text` its text: its commands wait for their outputs. */
  reply(m: Readonly<Record<string, unknown>>, text: string | undefined, round: number): void {
    this.flush();
    let said = text;
    const commands = textCommands(m, text);
    this.refused = commands.length === 0 ? { text, round, blocks: text === undefined ? 0 : fencedCommands(text).length } : null;
    for (const command of commands) {
      this.waiting.push({ command, text: said, round });
      said = undefined;
    }
  }

  /** A `user` message (`text` its text): the output of the oldest command waiting, if any. */
  observation(m: Readonly<Record<string, unknown>>, text: string): void {
    const w = this.waiting.shift();
    const refused = this.refused;
    this.refused = null;
    if (w === undefined && refused !== null && isTextFormatError(text)) {
      const at = this.calls.call(undefined, { tool: FORMAT_ERROR_TOOL, args: { n_blocks: statedBlocks(text) ?? refused.blocks }, text: refused.text, round: refused.round });
      this.calls.resultAt(at, text, 'known', text);
      return;
    }
    if (w === undefined || isTextFormatError(text)) return;
    const outcome = observationOutcome(m, text);
    const at = this.calls.call(undefined, { tool: TEXT_ACTION_TOOL, args: { command: w.command }, text: w.text, round: w.round });
    this.calls.resultAt(at, text, outcome.errorInfo, outcome.error);
  }

  /** Holds the commands still waiting, without a result. */
  flush(): void {
    for (let w = this.waiting.shift(); w !== undefined; w = this.waiting.shift()) this.calls.call(undefined, { tool: TEXT_ACTION_TOOL, args: { command: w.command }, text: w.text, round: w.round });
  }
}
