/**
 * Recognises a harness rejecting the model's turn: the answer held no action the harness could read (no
 * command, two commands where one is allowed, text that does not parse as a tool call), so nothing ran
 * and the harness says how to answer instead. The harness corrects the model, and its own limits end a run
 * that does not recover (SWE-agent's cap on requeries, `exit_format`; a step or cost limit); a loop detector
 * that breaks such a run stops correct work whose model slipped in form, not in substance. The policy therefore never breaks on a rejected turn
 * (evidence-screen.ts, `rejectedTurn`): repeated, it is warned about.
 *
 * The texts are those harnesses answer with, as words of the class, not one harness's message: "provide
 * exactly one action", "your output was not formatted correctly", "your last output did not use any tool
 * calls", "could not parse LLM output", "invalid format: missing 'Action:'", "no action found in your
 * response", a tool the harness does not have ('Tool "replace" not found in registry').
 */
import { anyPattern } from './any-pattern.js';

/** Characters of an error text read. */
export const REJECTION_LOOK = 512;

/** What a rejection of the turn's form says. */
export const REJECTION_PATTERNS: readonly RegExp[] = Object.freeze([
  /\b(?:provide|include|use|give)\s+exactly\s+one\s+(?:action|command|tool[ _]call|function[ _]call|code block)s?\b/i,
  /\byour\s+(?:last\s+|previous\s+)?(?:output|response|answer|message)\s+(?:was\s+not\s+(?:formatted|formed)\s+correctly|did\s+not\s+(?:use|include|contain)\s+any\s+(?:tool|function)\s+calls?)\b/i,
  /\b(?:could\s+not|couldn't|unable\s+to|failed\s+to)\s+parse\s+(?:the\s+|your\s+)?(?:llm\s+|model\s+)?(?:output|response|action|answer)\b/i,
  /\binvalid\s+format:\s+missing\s+'?action/i,
  /\bno\s+(?:valid\s+|parsable\s+)?(?:action|command|tool[ _]call|function[ _]call)s?\s+(?:was\s+|were\s+)?found\s+in\s+(?:your|the)\s+(?:response|output|answer|message)\b/i,
  // a call of a tool the harness does not have (Gemini CLI: 'Tool "replace" not found in registry.')
  /\btool\s+["'`]?[\w.:-]{1,64}["'`]?\s+(?:not\s+found\s+in\s+(?:the\s+)?(?:tool\s+)?registry|is\s+not\s+(?:a\s+)?registered(?:\s+tool)?)\b/i,
]);

/** REJECTION_PATTERNS asked as one (any-pattern.ts). */
const anyOf = anyPattern(REJECTION_PATTERNS);

/** Whether an error says the harness could not read an action from the model's turn (nothing ran). */
export function isTurnRejection(error: string): boolean {
  const t = error.length > REJECTION_LOOK ? error.slice(0, REJECTION_LOOK) : error;
  return anyOf(t);
}
