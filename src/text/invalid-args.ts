/**
 * Recognises a tool refusing a call's arguments before doing anything: a schema's validation error
 * ("params/questions/0/header must NOT have more than 16 characters", "params must have required property
 * 'old_string'", pydantic's "1 validation error for Edit ... Field required", "missing 1 required
 * positional argument"), or a patch it could not parse ("invalid hunk at line 4"). The error says what to
 * change in the args, so the next call with changed args is the agent answering it, not another knock on a
 * wall the world put up (a page that does not exist, a folder that is not a repository): a dead end's wall
 * (src/live/dead-end-wall.ts) is not made of these, nor is a dead end of patches refused answered by patches
 * that applied (src/policy/evidence-screen.ts's formSlipsAnswered).
 *
 * The texts are words of the class (JSON Schema validators, pydantic, zod, Python's call errors), not
 * one tool's message. Reads at most {@link INVALID_ARGS_LOOK} characters.
 */
import { anyPattern } from './any-pattern.js';

/** Characters of an error text read. */
export const INVALID_ARGS_LOOK = 512;

/** What a refusal of the args says. */
export const INVALID_ARGS_PATTERNS: readonly RegExp[] = Object.freeze([
  // JSON Schema validators (ajv): "<path> must NOT have more than 16 characters", "must have required property 'x'"
  /\bmust\s+(?:NOT\s+)?(?:have\s+(?:more|fewer|less)\s+than\s+\d+|have\s+required\s+property|be\s+(?:equal\s+to\s+one\s+of|one\s+of|equal\s+to\s+constant|(?:a\s+|an\s+)?(?:string|number|integer|boolean|array|object|null)\b|[<>]=?\s*\d)|match\s+(?:pattern|format)|have\s+no\s+additional\s+properties)/i,
  // pydantic: "1 validation error for Edit", "Field required", "Input should be a valid string"
  /\b\d+\s+validation\s+errors?\s+for\s+\w+/i,
  /\bInput\s+should\s+be\s+(?:a\s+valid|less|greater|at\s+(?:most|least))\b/,
  // zod: "Expected string, received number"
  /\bExpected\s+(?:string|number|boolean|array|object|integer),\s+received\s+\w+/,
  // Python: "missing 1 required positional argument", "got an unexpected keyword argument"
  /\bmissing\s+\d+\s+required\s+(?:positional\s+|keyword(?:-only)?\s+)?arguments?\b/i,
  /\bgot\s+an\s+unexpected\s+keyword\s+argument\b/i,
  // serde, as Codex CLI words it: "failed to parse function arguments: invalid type: string ..."
  /\bfailed\s+to\s+parse\s+(?:function\s+|tool\s+)?arguments\b/i,
  // generic: "Invalid params", "invalid arguments for tool"
  /\binvalid\s+(?:params|parameters|arguments|args|tool\s+(?:input|arguments))\b/i,
  // a patch its tool could not parse (Codex's apply_patch: "invalid hunk at line 4, '' is not a valid hunk
  // header", "Invalid patch hunk on line 3: ...", "Invalid patch: The last line of the patch must be '*** End
  // Patch'"): the patch, the call's argument, is refused for its form before any file is read
  /\binvalid\s+(?:patch\s+)?hunk\s+(?:at|on)\s+line\s+\d+/i,
  /\bInvalid\s+patch:\s/,
]);

/** INVALID_ARGS_PATTERNS asked as one (any-pattern.ts). */
const anyOf = anyPattern(INVALID_ARGS_PATTERNS);

/** Whether an error says the tool refused the call's arguments (see above). */
export function refusedArgs(error: string): boolean {
  const t = error.length > INVALID_ARGS_LOOK ? error.slice(0, INVALID_ARGS_LOOK) : error;
  return anyOf(t);
}
