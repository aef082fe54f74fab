/**
 * Which Claude Code transcript lines are a person's typed prompt: where Claude Code calls its
 * UserPromptSubmit hook, and loopwatch's hook gives the session a fresh start (LoopDetector.freshStart).
 * A `user` line of the main chain whose content is text a person typed: not a tool result, not a meta line
 * (`isMeta`: caveats, skill bodies), not a compaction summary (`isCompactSummary`), not a slash command or
 * `!` shell command echoed into the chat (`<command-name>`, `<local-command-stdout>`, `<bash-input>`, ...),
 * not the `[Request interrupted by user]` marker. The same definition as scripts/devset/prompt-replay.mjs.
 */
import { isRecord } from './json-value.js';

/** Characters of a prompt's text looked at: enough for the markers, whatever the prompt's length. */
const PROMPT_LOOK = 64;

/** The tags Claude Code wraps a slash command or a `!` shell command's echo in, at the start of the text. */
const ECHO = /^\s*<(?:local-command|command-name|command-message|bash-)/;

/** The line Claude Code writes when the person interrupts a turn. */
const INTERRUPTED = '[Request interrupted';

/** Whether a text block's text is typed (not an echo, not an interruption marker). */
function typedText(text: string): boolean {
  const head = text.slice(0, PROMPT_LOOK);
  return !ECHO.test(head) && !head.startsWith(INTERRUPTED);
}

/** Whether transcript line `v` (of `type: "user"`, its `message` an object) is a prompt a person typed. */
export function isTypedPrompt(v: Record<string, unknown>, content: unknown): boolean {
  if (v.type !== 'user' || v.isSidechain === true || v.isMeta === true || v.isCompactSummary === true) return false;
  if (typeof content === 'string') return typedText(content);
  if (!Array.isArray(content)) return false;
  let text = false;
  for (const b of content as unknown[]) {
    if (!isRecord(b)) continue;
    if (b.type === 'tool_result') return false;
    if (b.type === 'text' && (typeof b.text !== 'string' || !b.text.startsWith(INTERRUPTED))) text = true;
  }
  return text;
}
