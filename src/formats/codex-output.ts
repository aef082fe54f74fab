/**
 * What a Codex CLI tool output says about the call. Codex has written shell results in three shapes over
 * its versions, all of them strings:
 *
 * - structured: `{"output": "...", "metadata": {"exit_code": 1, "duration_seconds": 0.4}}` as JSON text;
 * - freeform: `Exit code: 1\nWall time: 0.4 seconds\nOutput:\n...`;
 * - unified exec: `Chunk ID: ...\nWall time: ...\nProcess exited with code 1\nOutput:\n...`; from Codex 0.117
 *   on, behind a first line `Command: <the command>`, which runs over several lines when the command does
 *   (a heredoc) and can be longer than the header window: that echo is set aside up to the `Chunk ID:` (or
 *   `Wall time:`) line that follows it, and the rest read as above. A process still running (`Process
 *   running with session ID N` in place of the exit code: a call answered before its command ended, or a
 *   poll of it) has no outcome yet: unknown, its result the running line and the output, without the
 *   header's chunk id and wall time (codex-exec-header.ts).
 *
 * Codex 0.14x's code mode (the tool `exec`, a script calling the other tools) answers with content parts
 * whose text is `Script completed\nWall time N seconds\nOutput:\n...` (a known success), `Script
 * failed\n...` (a known failure) or `Script error:\nExit code: 1\nWall time: ...\nOutput:\n...` (by its
 * exit code); the output alone is the result there too.
 *
 * Codex 0.114-0.122 also gives some outputs behind a bare timing header, `Wall time: N seconds\nOutput:\n...`
 * (an MCP tool's JSON answer; an `apply_patch` run through `exec_command`, its structured output inside):
 * the header is set aside and the rest read as above, unknown unless it says more.
 *
 * A command Codex's exec policy refused before it ran is answered `` `<the command>` rejected: <reason> ``
 * (`blocked by policy`; seen from 0.10x, Windows PowerShell commands among them): a known failure.
 *
 * Codex's own answers for a call that failed around its command (`apply_patch verification failed: ...`,
 * `failed in sandbox: ...`, `exec_command failed: ...`, `write_stdin failed: ...`, `execution error: ...`, a
 * person's `exec command rejected by user`, `aborted`: see codex-tool-error.ts) are known failures.
 *
 * Each gives the exit code (0: a known success, else a known failure) and the output alone as the result
 * (a command stopped at its time limit, exit code 124, keeps that line before it: {@link exited}),
 * without the timing that differs between identical runs. An output object `{content, success}` says
 * success or failure by `success`. Any other output (most non-shell tools) says nothing: `unknown`.
 * Only the first {@link HEAD_CHARS} characters are looked at for the header (linear time, whatever the size).
 */
import { type Outcome, failure } from './held-calls.js';
import { codexToolError } from './codex-tool-error.js';
import { runningResult } from './codex-exec-header.js';
import { contentText, isRecord, parseJson } from './json-value.js';

/** Characters of an output searched for its header. */
export const HEAD_CHARS = 512;

const FREEFORM = /^Exit code: (-?\d+)\n/;
const UNIFIED = /^(?:[^\n]*\n){0,4}Process exited with code (-?\d+)\n/;
const BODY = '\nOutput:\n';
const SCRIPT = /^Script (completed|failed)\nWall time [^\n]*\n/;
const SCRIPT_ERROR = /^Script error:\nExit code: (-?\d+)\n/;
/** The end of a refusal: `` `<command>` rejected: blocked by policy ``, looked for in its last characters. */
const REJECTED = /` rejected: [^\n`]+$/;
const TAIL_CHARS = 256;
/** The command's echo Codex 0.117+ puts first on a unified exec output, and the lines that can end it. */
const COMMAND = 'Command: ';
const AFTER_COMMAND = ['\nChunk ID: ', '\nWall time: '] as const;

/** A timing header with no exit code before the output: `Wall time: 0.0468 seconds\nOutput:\n`. */
const WALL_ONLY = /^Wall time: [^\n]*\nOutput:\n/;

/** `s` without the leading `Command: ...` echo (its lines up to the next header line), or `s` as it is. */
function withoutCommandEcho(s: string): string {
  if (!s.startsWith(COMMAND)) return s;
  for (const marker of AFTER_COMMAND) {
    const at = s.indexOf(marker, COMMAND.length);
    if (at !== -1) return s.slice(at + 1);
  }
  return s;
}

/**
 * The exit code Codex answers a command it stopped at its time limit with (`timeout_ms`, 10 s by default), as
 * coreutils' `timeout` does; its words for it, written from 0.7x before the output (0.6x writes none).
 */
const TIMEOUT_CODE = 124;
const TIMED_OUT = 'command timed out';

/**
 * A result with exit code `code`: known success at 0, known failure otherwise. A failure at the time limit
 * keeps its status before the output (`Exit code: 124`), unless Codex said so in words: the output alone
 * would not say the command was stopped (src/text/timeout-exit.ts).
 */
function exited(result: string, code: number): Outcome {
  if (code === 0) return { result, errorInfo: 'absent' };
  return failure(code === TIMEOUT_CODE && !result.startsWith(TIMED_OUT) ? `Exit code: ${TIMEOUT_CODE}\n${result}` : result);
}

/** What an output string says. */
function textOutcome(output: string): Outcome {
  const echoless = withoutCommandEcho(output);
  const wall = echoless.startsWith('Wall time: ') ? WALL_ONLY.exec(echoless.slice(0, HEAD_CHARS)) : null;
  const s = wall === null ? echoless : echoless.slice(wall[0].length);
  if (s.startsWith('{"output"')) {
    const p = parseJson(s);
    if (p.ok && isRecord(p.value) && typeof p.value.output === 'string' && isRecord(p.value.metadata) && typeof p.value.metadata.exit_code === 'number') {
      return exited(p.value.output, p.value.metadata.exit_code);
    }
  }
  if (s.startsWith('`') && REJECTED.test(s.slice(-TAIL_CHARS))) return failure(s);
  const head = s.slice(0, HEAD_CHARS);
  const script = SCRIPT.exec(head);
  if (script !== null) {
    const at = head.indexOf(BODY);
    return exited(at === -1 ? s.slice(script[0].length) : s.slice(at + BODY.length), script[1] === 'completed' ? 0 : 1);
  }
  const m = FREEFORM.exec(head) ?? UNIFIED.exec(head) ?? SCRIPT_ERROR.exec(head);
  if (m === null) {
    const running = runningResult(s, head);
    if (running !== undefined) return { result: running, errorInfo: 'unknown' };
    return codexToolError(s) ?? { result: s, errorInfo: 'unknown' };
  }
  const at = head.indexOf(BODY);
  return exited(at === -1 ? s : s.slice(at + BODY.length), Number(m[1]));
}

/** What the `output` of a `function_call_output` or `custom_tool_call_output` says. */
export function codexOutcome(output: unknown): Outcome {
  if (typeof output === 'string') return textOutcome(output);
  if (isRecord(output)) {
    const text = typeof output.content === 'string' ? output.content : contentText(output.content_items ?? output.content);
    if (output.success === false) return failure(text);
    if (output.success === true) return { result: text, errorInfo: 'absent' };
    return typeof text === 'string' ? textOutcome(text) : { result: text, errorInfo: 'unknown' };
  }
  const text = contentText(output); // content parts (code mode's answers)
  return typeof text === 'string' ? textOutcome(text) : { result: text, errorInfo: 'unknown' };
}

/**
 * What a `tool_search_output` (Codex 0.14x: the tools a `tool_search_call` found, `{status, tools: [{type,
 * name, description, tools?}]}`) says: the names of the tools found, one a line (`namespace.tool` inside a
 * namespace), without their long descriptions; empty when it found none. `completed` is a known success,
 * another status a known failure.
 */
export function toolSearchOutcome(output: Readonly<Record<string, unknown>>): Outcome {
  const names: string[] = [];
  const walk = (tools: unknown, prefix: string): void => {
    if (!Array.isArray(tools)) return;
    for (const t of tools) {
      if (!isRecord(t) || typeof t.name !== 'string') continue;
      if (Array.isArray(t.tools)) walk(t.tools, `${prefix}${t.name}.`);
      else names.push(prefix + t.name);
    }
  };
  walk(output.tools, '');
  const result = names.join('\n');
  return output.status === undefined || output.status === 'completed' ? { result, errorInfo: 'absent' } : failure(result);
}
