/**
 * Whether a person's prompt only answers the agent's own question ("2", "yes", "ok", "continue", "B", "yes
 * to all", "お願いします"), rather than giving a new task. Such a prompt gives the session no fresh start
 * (LoopDetector.freshStart, src/live/fresh-start.ts): the agent asked, the person picked, and the agent goes
 * on with the same work. An agent that ends each round of a loop with a question ("the push left new
 * changes: 1. stop, 2. commit them again?") would otherwise be started afresh by every answer, and the loop
 * would never count. Every place that hears prompts asks this one function: the readers (Claude Code,
 * Codex, Gemini CLI transcripts, hook payload logs: TraceCall.prompted), so scan, eval, calibrate and
 * explain, and the hooks (UserPromptSubmit, BeforeAgent: `loopwatch hook` and `loopwatch serve`).
 *
 * A prompt is an answer when, at most {@link ANSWER_LOOK} characters long (looked at before any pattern),
 * normalised (NFKC: a full-width `２` is `2`; lower case; spaces squeezed; trailing `.`, `!`, `。`, `！`
 * dropped), it is
 *   - a menu choice: one or two digits, or one letter, optionally in brackets or with `)` `.` `:` after it
 *     (`2`, `(b)`, `3.`, `option 2`);
 *   - one of {@link ANSWER_WORDS}: a yes, an ok, a go-on, in English and a few other languages the
 *     agents' users write in.
 * Anything else (a longer text, "yes, and fix the docs too", "ok, deploy it", an image) is a new prompt.
 * A prompt that is not a string (a payload without it) is a new prompt, as before this rule.
 */

/** Characters of a prompt looked at: a longer prompt is never an answer (no pattern reads more). */
export const ANSWER_LOOK = 32;

/**
 * The whole-prompt answers (normalised as above): agreeing, going on, choosing all. Exported so tests use
 * the same list.
 */
export const ANSWER_WORDS: ReadonlySet<string> = new Set([
  'y', 'yes', 'yeah', 'yep', 'yup', 'ok', 'okay', 'k', 'sure', 'yes please', 'ok please', 'please', 'please do',
  'yes to all', 'yes to both', 'yes all', 'both', 'all', 'all of them', 'go', 'go on', 'go ahead', 'ok go ahead',
  'continue', 'please continue', 'keep going', 'proceed', 'please proceed', 'do it', 'ok do it', 'yes do it',
  'next', 'sounds good', 'lgtm', 'approved', 'agreed',
  // Japanese, Chinese, Korean, French, German, Spanish: yes / please (do) / go on
  'はい', 'お願いします', 'おねがいします', 'お願い', '続けて', '続けてください', 'どうぞ',
  '好', '好的', '可以', '是', '是的', '继续', '同意',
  '네', '예', '계속', '좋아',
  'oui', 'ja', 'sí', 'si', 'continuer', 'weiter', 'vale',
]);

/** A menu choice: one or two digits, or one letter, maybe bracketed or followed by `)`, `.`, `:`; or "option N". */
const MENU = /^(?:option |choice )?[([]?(?:[0-9]{1,2}|\p{L})[)\].:]?$/u;

/** Trailing punctuation an answer may end with. */
const TRAILING = /[.!。！、,，]+$/u;

/** `prompt` as the answers are written: NFKC, lower case, trimmed, spaces squeezed, trailing punctuation dropped. */
function normalised(prompt: string): string {
  return prompt.normalize('NFKC').toLowerCase().trim().replace(/\s+/gu, ' ').replace(TRAILING, '').trim();
}

/**
 * A prompt's text, when short enough to be an answer: a string, or the parts of a message's content (Claude
 * Code's `{type: "text", text}` blocks, Gemini CLI's `{text}` parts) joined by newlines. Undefined for a longer
 * one and for one with another part (an image is new information), read no further than ANSWER_LOOK.
 */
function shortText(prompt: unknown): string | undefined {
  if (typeof prompt === 'string') return prompt.length > ANSWER_LOOK ? undefined : prompt;
  if (!Array.isArray(prompt)) return undefined;
  let text: string | undefined;
  for (const part of prompt as unknown[]) {
    if (typeof part !== 'object' || part === null) return undefined;
    const { type, text: t } = part as { type?: unknown; text?: unknown };
    if (typeof t !== 'string' || (type !== undefined && type !== 'text')) return undefined;
    text = text === undefined ? t : `${text}\n${t}`;
    if (text.length > ANSWER_LOOK) return undefined;
  }
  return text;
}

/**
 * Whether `prompt` only answers the agent's own question, and so gives the session no fresh start (see the
 * header). `prompt`: its text, or a message's content parts (text only); anything else is a new prompt.
 */
export function answersAgent(prompt: unknown): boolean {
  const text = shortText(prompt);
  if (text === undefined) return false;
  const p = normalised(text);
  return p !== '' && (ANSWER_WORDS.has(p) || MENU.test(p));
}
