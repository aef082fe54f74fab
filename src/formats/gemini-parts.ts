/**
 * Gemini API parts as Gemini CLI records them: a message's `content` (a string, or parts `{text, thought?}`),
 * a tool call's `result` (parts `{functionResponse: {id, name, response: {output} | {error}}}`, sometimes
 * beside a `{text}` part the CLI injected) and a checkpoint's `functionResponse` parts. What a call said and
 * what its result says about failure.
 */
import { failure, type Outcome } from './held-calls.js';
import { imagePlaceholder } from './image-part.js';
import { isRecord } from './json-value.js';

/** Tool call statuses that end a call (Gemini CLI's scheduler); others (`scheduled`, `executing`, ...) do not. */
const FAILED = new Set(['error', 'cancelled']);

/** The text of `content`: a string, or the text of its parts but thoughts, joined by newlines; undefined when empty. */
export function partsText(content: unknown): string | undefined {
  if (typeof content === 'string') return content === '' ? undefined : content;
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const p of content) if (isRecord(p) && typeof p.text === 'string' && p.text !== '' && p.thought !== true) texts.push(p.text);
  return texts.length === 0 ? undefined : texts.join('\n');
}

/** What Gemini CLI appends to a tool's output for each AfterTool hook's `additionalContext` (packages/core coreToolHookTriggers). */
const HOOK_CONTEXT_OPEN = '\n\n<hook_context>';
const HOOK_CONTEXT_CLOSE = '</hook_context>';

/**
 * Blocks withoutHookContext leaves out at most: Gemini CLI appends one per tool call for its AfterTool hooks
 * (their contexts joined), and one for its BeforeTool hooks where it does so too.
 */
export const MAX_HOOK_CONTEXT_BLOCKS = 2;

/**
 * `output` without the `<hook_context>` blocks Gemini CLI appended to its end: an AfterTool hook's
 * `additionalContext` (loopwatch's own warning among them) is added to the tool's output as
 * `\n\n<hook_context>...</hook_context>`, and the chat records it so. It is not what the tool said: read
 * with it, the call the hook warned about had another result than its identical runs before it, and `scan`
 * of the chat missed the loop the hook saw. At most MAX_HOOK_CONTEXT_BLOCKS: a tool's output ending in
 * many such blocks of its own (a file read, an MCP server's answer) keeps all but the last two, where
 * before the whole output could vanish. Linear: each block is found from the end once.
 */
export function withoutHookContext(output: string): string {
  let end = output.length;
  for (let n = 0; n < MAX_HOOK_CONTEXT_BLOCKS && output.startsWith(HOOK_CONTEXT_CLOSE, end - HOOK_CONTEXT_CLOSE.length) && end >= HOOK_CONTEXT_OPEN.length + HOOK_CONTEXT_CLOSE.length; n++) {
    const at = output.lastIndexOf(HOOK_CONTEXT_OPEN, end - HOOK_CONTEXT_CLOSE.length - HOOK_CONTEXT_OPEN.length);
    if (at < 0) break;
    end = at;
  }
  return end === output.length ? output : output.slice(0, end);
}

/**
 * Whether a `user` message's `content` only sends tools' results back to the model: one part at least a
 * `functionResponse`, the others the parts Gemini CLI puts beside one: the `<hook_context>` text a hook's
 * context adds, the file or image a tool read (`inlineData`, `fileData`, beside its response where the model
 * takes no media inside one), the text parts of a tool's answer (older versions put them beside
 * it). Gemini CLI 0.61's JSONL chat writes such a message after each model turn's calls; it is not a
 * person's prompt, and a tool (an image read, an MCP server's answer) cannot make it one: read as a prompt,
 * it ended the agent's turn and gave the session a fresh start.
 */
export function onlyToolResults(content: unknown): boolean {
  if (!Array.isArray(content) || content.length === 0) return false;
  let responses = 0;
  for (const p of content) {
    if (!isRecord(p)) return false;
    if (isRecord(p.functionResponse)) responses++;
    else if (typeof p.text !== 'string' && !isRecord(p.inlineData) && !isRecord(p.fileData)) return false;
  }
  return responses > 0;
}

/** A `functionResponse.response`'s text: its `output` (else `error`) when a string, else the object as given. */
function responseText(response: unknown): unknown {
  if (!isRecord(response)) return response;
  if (typeof response.output === 'string') return withoutHookContext(response.output);
  if (typeof response.error === 'string') return response.error;
  return response;
}

/** The text of a part that is a file or image given inline (`inlineData {mimeType, data}`), as a placeholder. */
function inlineText(part: Readonly<Record<string, unknown>>): string | null {
  const d = part.inlineData;
  if (!isRecord(d) || typeof d.data !== 'string') return null;
  return imagePlaceholder({ type: 'image', source: { type: 'base64', media_type: d.mimeType, data: d.data } });
}

/**
 * What a tool's response says: the `output` (or the `error`, which makes a known failure) of its
 * `functionResponse` parts; without any, the text of the other parts (inline data as placeholders).
 */
export function responseOutcome(result: unknown): Outcome {
  const parts = Array.isArray(result) ? result : result === undefined || result === null ? [] : [result];
  const responses = parts.filter((p): p is Record<string, unknown> => isRecord(p) && isRecord(p.functionResponse));
  if (responses.length === 0) {
    if (typeof result === 'string') return { result, errorInfo: 'absent' };
    const texts = parts.map((p) => (isRecord(p) ? (typeof p.text === 'string' ? p.text : inlineText(p)) : null));
    return { result: parts.length > 0 && texts.every((t) => t !== null) ? texts.join('\n') : result ?? undefined, errorInfo: 'absent' };
  }
  const texts = responses.map((p) => responseText((p.functionResponse as Record<string, unknown>).response));
  const text = texts.length === 1 ? texts[0] : texts.every((t) => typeof t === 'string') ? texts.join('\n') : texts;
  const failed = responses.some((p) => {
    const r = (p.functionResponse as Record<string, unknown>).response;
    return isRecord(r) && r.error !== undefined && r.output === undefined;
  });
  return failed ? failure(text) : { result: text, errorInfo: 'absent' };
}

/** Characters at the end of a shell output searched for its footer. */
export const SHELL_FOOTER_CHARS = 512;
/** Footer lines of Gemini CLI's shell output: the exit code, and what differs between identical runs (left out). */
const FOOTER = /^(?:Exit Code: (-?\d+)|Signal: .*|Background PIDs: .*|Process Group PGID: .*)$/;

/** The tags Gemini CLI puts around a shell output from 0.49 on (`wrapUntrusted`, packages/core/src/utils/textUtils.ts). */
const UNTRUSTED_OPEN = '<untrusted_context>\n';
const UNTRUSTED_CLOSE = '\n</untrusted_context>';

/**
 * What `run_shell_command`'s output says (`Output: ...`, then footer lines `Error:`, `Exit Code: N`,
 * `Signal:`, `Background PIDs:`, `Process Group PGID: N`): an exit code other than 0 makes a known failure
 * (the tool itself reports success), and the footer is left out of the result, its process ids differing
 * between identical runs. Only the last {@link SHELL_FOOTER_CHARS} characters are looked at. From Gemini CLI
 * 0.49 the output is wrapped in `<untrusted_context>` tags: it is read inside them, and the result is the
 * inside without its footer.
 */
export function shellOutcome(wrapped: string): Outcome {
  const output = wrapped.length >= UNTRUSTED_OPEN.length + UNTRUSTED_CLOSE.length && wrapped.startsWith(UNTRUSTED_OPEN) && wrapped.endsWith(UNTRUSTED_CLOSE) ? wrapped.slice(UNTRUSTED_OPEN.length, -UNTRUSTED_CLOSE.length) : wrapped;
  const start = Math.max(0, output.length - SHELL_FOOTER_CHARS);
  let end = output.length;
  let code = 0;
  for (;;) {
    const nl = output.lastIndexOf('\n', end - 1);
    if (nl < start) break;
    const m = FOOTER.exec(output.slice(nl + 1, end));
    if (m === null) break;
    if (m[1] !== undefined) code = Number(m[1]);
    end = nl;
  }
  const result = output.slice(0, end);
  return code === 0 ? { result, errorInfo: 'absent' } : failure(result);
}

/**
 * The outcome of a chat's tool call record (`{name, status, result}`): `success` a known success (but a
 * shell command that exited with another code than 0: shellOutcome), `error` and `cancelled` (a denied or
 * interrupted call) a known failure, with the response's text; a call still scheduled or running has none
 * yet (null).
 */
export function toolCallOutcome(tc: Readonly<Record<string, unknown>>): Outcome | null {
  const status = tc.status;
  if (status === 'success') {
    const o = responseOutcome(tc.result);
    return tc.name === 'run_shell_command' && typeof o.result === 'string' ? shellOutcome(o.result) : { result: o.result, errorInfo: 'absent' };
  }
  if (typeof status === 'string' && FAILED.has(status)) return failure(responseOutcome(tc.result).result);
  return tc.result === undefined || tc.result === null ? null : responseOutcome(tc.result);
}
