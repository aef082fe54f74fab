/**
 * Codex CLI's own answers for a tool call that failed before or around its command: strings with no exit
 * code header, which codex-output.ts would otherwise read as saying nothing. Each is a known failure, its
 * text the error (so error classes and dead ends read it):
 *
 * | answer (start of the output)                                   | what failed                               | error text                 |
 * |----------------------------------------------------------------|-------------------------------------------|----------------------------|
 * | `apply_patch verification failed: ...`                         | a patch that does not apply (agent's)     | the whole answer           |
 * | `error: Failed to find expected lines ...`, `error: invalid hunk ...`, `error: invalid patch: ...`, `error: Failed to read ...` | the same, Codex before 0.45 (`apply_patch` run through `shell`) | the whole answer |
 * | `failed in sandbox: <stderr>`                                  | the command failed inside the sandbox     | its stderr                 |
 * | `failed in sandbox <Kind> with execution error: ...`           | the same, the exec error written out      | the command's output (its stdout, then its stderr) |
 * | `exec_command failed[ for \`cmd\`]: ...`                       | unified exec could not run it (sandbox denial, exec policy) | the command's output, else the rest |
 * | `write_stdin failed: ...`                                      | input to a session that has ended         | the whole answer           |
 * | `execution error: ...`                                         | the process could not start (no such workdir or program) | the whole answer |
 * | `exec command rejected...`, `patch rejected by user`, `approval policy is Never; reject command...` | the command or patch was refused unrun | the whole answer |
 * | `aborted`, `aborted by user[ after Ns]`                        | the person interrupted the turn           | the whole answer           |
 * | `failed to parse function arguments: ...`                      | args Codex could not read                 | the whole answer           |
 *
 * Whether a failure is the agent's is read from the error text as for any format (src/text/error-reading.ts):
 * a person's refusal or interruption is declined (failure-kinds.ts), a sandbox that could not start is an
 * infrastructure failure (infra-failure.ts), the rest are the agent's. Where Codex wrote the command's
 * output as a Rust debug dump (`Denied { output: ExecToolCallOutput { ..., aggregated_output: StreamOutput
 * { text: "..." }, duration: 62.8ms, ... } }`), the output text alone is the error, without the duration
 * that differs between identical runs; where it wrote it plainly (`sandbox denied exec error, exit code: 1,
 * stdout: <out>, stderr: <err>`), the stdout then the stderr. So a command that failed printing nothing
 * fails silently here as it does elsewhere (failure-kinds.ts's failedSilently). A Codex 0.11x+ `Wall time:
 * N seconds` line or a `Total output lines: N` line before the answer is set aside.
 */
import { type Outcome, failure } from './held-calls.js';

/** Answers whose whole text is the error. */
const WHOLE = /^(?:apply_patch verification failed: |error: (?:Failed to find expected lines|invalid hunk at line|invalid patch|Failed to read )|write_stdin failed: |execution error: |exec command rejected\b|patch rejected by user\b|approval policy is \w+; reject command\b|aborted(?: by user\b|$)|failed to parse function arguments: )/;
/** Answers whose rest, after this prefix, is the command's output (or an exec error holding it). */
const PREFIXED = /^(?:failed in sandbox(?::(?:[ \n]|$)| \w+ with execution error: )|exec_command failed(?: for `[^]*?`)?: )/;
/** Codex 0.3x's exec error written plainly: `sandbox denied exec error, exit code: 1, stdout: <out>, stderr: <err>`. */
const PLAIN_DENIED = /^sandbox denied exec error, exit code: -?\d+, stdout: /;
const STDERR = ', stderr: ';
/** Header lines Codex can put before the answer. */
const HEADER = /^(?:Wall time: [^\n]*\n|Total output lines: \d+\n\n)/;
/** Where a debug dump's output text begins, most complete first. */
const DUMP_FIELDS = ['aggregated_output: StreamOutput { text: "', 'stderr: StreamOutput { text: "'] as const;
const MESSAGE = 'message: "';
/** Debug dumps nest at most this deep (`CreateProcess { message: "Codex(Sandbox(Denied { ... }))" }`: 2). */
const MAX_DEPTH = 3;

/** A Rust `{:?}` string literal's text, its opening quote at `s[at - 1]`; undefined when it does not end. */
function debugString(s: string, at: number): string | undefined {
  let out = '';
  let from = at;
  for (let i = at; i < s.length; i++) {
    const c = s[i];
    if (c === '"') return out + s.slice(from, i);
    if (c !== '\\') continue;
    out += s.slice(from, i);
    const e = s[i + 1];
    if (e === 'u' && s[i + 2] === '{') {
      const close = s.indexOf('}', i + 3);
      const code = close === -1 ? NaN : Number.parseInt(s.slice(i + 3, close), 16);
      if (Number.isNaN(code) || code > 0x10ffff) return undefined;
      out += String.fromCodePoint(code);
      i = close;
    } else {
      out += e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e === '0' ? '\0' : (e ?? '');
      i++;
    }
    from = i + 1;
  }
  return undefined;
}

/** The command's output a Rust debug dump of an exec error holds, looked for `depth` strings deep; else undefined. */
function dumpedOutput(s: string, depth: number): string | undefined {
  for (const field of DUMP_FIELDS) {
    const at = s.indexOf(field);
    if (at !== -1) return debugString(s, at + field.length);
  }
  const at = s.indexOf(MESSAGE);
  if (at === -1) return undefined;
  const message = debugString(s, at + MESSAGE.length);
  if (message === undefined || depth >= MAX_DEPTH) return message;
  return dumpedOutput(message, depth + 1) ?? message;
}

/**
 * The known failure a Codex tool output (`s`, its exit code header and command echo already set aside)
 * says when it is one of Codex's own answers for a failed call (see above); undefined for any other text.
 */
export function codexToolError(s: string): Outcome | undefined {
  let text = s;
  for (let i = 0; i < 2; i++) {
    const header = HEADER.exec(text);
    if (header === null) break;
    text = text.slice(header[0].length);
  }
  if (WHOLE.test(text)) return failure(text);
  const prefix = PREFIXED.exec(text);
  if (prefix === null) return undefined;
  const rest = text.slice(prefix[0].length);
  if (rest.includes('StreamOutput { text: ')) return failure(dumpedOutput(rest, 1) ?? rest);
  const plain = PLAIN_DENIED.exec(rest);
  if (plain === null) return failure(rest);
  const body = rest.slice(plain[0].length);
  const at = body.indexOf(STDERR);
  return failure(at === -1 ? body : body.slice(0, at) + body.slice(at + STDERR.length));
}
