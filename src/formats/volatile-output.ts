/**
 * The parts of a Claude Code tool result that differ between two identical runs, left out when outcomes
 * are compared: by the hook (src/hooks/claude-code.ts) and by the readers of the same agent's transcripts
 * and hook payload logs (claude-code.ts, hook-payloads.ts), so `scan` and `eval` of a transcript see each
 * outcome as the hook saw it (the pattern of volatile-input.ts, for results).
 *
 * - Fields of a built-in tool's `tool_response` object (the Agent SDK's sdk-tools.d.ts, Claude Code
 *   2.1.336): Bash's `persistedOutputPath` (an output too large to inline is saved under a new random
 *   name per call, e.g. `tool-results/b7on7tw79.txt`), `rawOutputPath` and `backgroundTaskId`; Glob's and
 *   WebFetch's `durationMs`; WebSearch's `durationSeconds`.
 * - The text Claude Code gives the model in place of such an output (2.1.2 on, any tool): a
 *   `<persisted-output>` block, `Output too large (36.8KB). Full output saved to: <path>` then a
 *   preview. The size and the preview are the output's; the path is the call's (a new random name, or
 *   the call's id, under the session's folder), so it is masked ({@link PERSISTED_PATH}). Left in, the
 *   same `git log` with the same large output never counted as the same outcome.
 *
 * Codex's unified exec header (its chunk id and wall time) is defined in codex-exec-header.ts, read
 * by the Codex rollout reader and hook alike through codex-output.ts.
 */

/** Per tool, the top-level fields of its `tool_response` object left out of the outcome. */
export const VOLATILE_RESULT: Readonly<Record<string, readonly string[]>> = Object.freeze({
  Bash: Object.freeze(['persistedOutputPath', 'rawOutputPath', 'backgroundTaskId']),
  PowerShell: Object.freeze(['persistedOutputPath', 'rawOutputPath', 'backgroundTaskId']),
  Glob: Object.freeze(['durationMs']),
  WebFetch: Object.freeze(['durationMs']),
  WebSearch: Object.freeze(['durationSeconds']),
});

/** What a persisted output's path is replaced by. */
export const PERSISTED_PATH = '<persisted output file>';

const OPEN_TAG = '<persisted-output>';
/** `saved to: <path>` up to the line's end, inside a persisted-output block (Windows paths have spaces). */
const SAVED_TO = /((?:Full output|Output has been) saved to:?[ \t]+)[^\r\n]*/g;

/**
 * `text` with the file path of each `<persisted-output>` block masked ({@link PERSISTED_PATH}); `text`
 * itself when it has no such block. Only the blocks' own lines are touched: a command that prints "saved
 * to: x" outside one keeps it.
 */
export function stablePersistedText(text: string): string {
  let at = text.indexOf(OPEN_TAG);
  if (at < 0) return text;
  let out = '';
  let from = 0;
  // the first blank line at or after `at`, looked for again only once `at` has passed it (-1: none left):
  // looked for from each block, a text of many blocks and no blank line was read to its end from each one
  let blank = -2;
  while (at >= 0) {
    const end = text.indexOf('</persisted-output>', at);
    const stop = end < 0 ? text.length : end;
    // the path is on the block's first lines; the preview (the output's own text) is left as it is
    if (blank !== -1 && blank < at) blank = text.indexOf('\n\n', at);
    const preview = blank;
    const head = preview < 0 || preview > stop ? stop : preview;
    out += text.slice(from, at) + text.slice(at, head).replace(SAVED_TO, `$1${PERSISTED_PATH}`);
    from = head;
    at = end < 0 ? -1 : text.indexOf(OPEN_TAG, end);
  }
  return out + text.slice(from);
}

/**
 * A Claude Code tool's result without what differs between identical runs: a string with its persisted
 * output's path masked; an object without the tool's {@link VOLATILE_RESULT} fields (and its strings'
 * paths masked); an array of content parts with each text's path masked. Anything else as it is.
 */
export function stableResult(tool: string, result: unknown): unknown {
  if (typeof result === 'string') return stablePersistedText(result);
  if (typeof result !== 'object' || result === null) return result;
  if (Array.isArray(result)) return result.some((x) => typeof x === 'object' && x !== null && typeof (x as { text?: unknown }).text === 'string') ? result.map((x) => textPart(x)) : result;
  const volatile = Object.hasOwn(VOLATILE_RESULT, tool) ? VOLATILE_RESULT[tool]! : [];
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(result)) {
    if (volatile.includes(k)) {
      changed = true;
      continue;
    }
    const y = typeof x === 'string' ? stablePersistedText(x) : x;
    if (y !== x) changed = true;
    out[k] = y;
  }
  return changed ? out : result;
}

function textPart(x: unknown): unknown {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return x;
  const p = x as Record<string, unknown>;
  if (typeof p.text !== 'string') return x;
  const text = stablePersistedText(p.text);
  return text === p.text ? x : { ...p, text };
}
