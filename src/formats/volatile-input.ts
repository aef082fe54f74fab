/**
 * The args fields an agent's tool gives that are the model's free text about a call, not the call: Claude
 * Code's `Bash` and `PowerShell` (its shell tool on Windows, 2.1.x) and Gemini CLI's `run_shell_command` take a `description` ("List files in the build
 * folder") that the model writes anew each time, so two runs of one command differ in it. Calls are
 * compared without them, by the hooks (src/hooks/claude-code.ts, gemini.ts) and by the readers of the
 * same agents' transcripts (claude-code.ts, gemini-chat.ts, gemini-checkpoint.ts, hook-payloads.ts), so
 * `loopwatch eval` and `scan` of a transcript see each call as the hook saw it: a command run again with a
 * new description is a repeat in both.
 *
 * One table, read by both: the field is a property of the agent's tool, not a detection option (a user's
 * `tools.*.ignoreFields` is applied on top, to hashing only; this takes the field out of the call).
 */

/** The agents whose tools have such fields. */
export type VolatileInputAgent = 'claude-code' | 'gemini';

/** Per agent, per tool, the args fields left out of the call. */
export const VOLATILE_INPUT: Readonly<Record<VolatileInputAgent, Readonly<Record<string, readonly string[]>>>> = Object.freeze({
  'claude-code': Object.freeze({ Bash: Object.freeze(['description']), PowerShell: Object.freeze(['description']) }),
  gemini: Object.freeze({ run_shell_command: Object.freeze(['description']) }),
});

const NONE: readonly string[] = Object.freeze([]);

/** The fields of `tool`'s args that `agent` fills with free text (none for most tools). */
export function volatileFields(agent: VolatileInputAgent, tool: string): readonly string[] {
  const table = VOLATILE_INPUT[agent];
  return Object.hasOwn(table, tool) ? table[tool]! : NONE;
}

/**
 * `input` without the fields in `fields`: a new object when it is a plain object holding one of them,
 * else `input` itself (a string, an array, an object without them).
 */
export function withoutFields(input: unknown, fields: readonly string[]): unknown {
  if (fields.length === 0 || typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const v = input as Record<string, unknown>;
  if (!fields.some((f) => Object.hasOwn(v, f))) return input;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (!fields.includes(k)) out[k] = x;
  return out;
}

/** `tool`'s args as `agent`'s hook compares them: without its free-text fields ({@link VOLATILE_INPUT}). */
export function stableInput(agent: VolatileInputAgent, tool: string, input: unknown): unknown {
  return withoutFields(input, volatileFields(agent, tool));
}
