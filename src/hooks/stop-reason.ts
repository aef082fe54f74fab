/**
 * What the person reads when a hook stops the agent's run (Claude Code's and Gemini CLI's `stopReason`,
 * shown to the user, not the model): the verdict's message was written for the model ("stop and ask the
 * user ... for help"), so the person was told neither who stopped the run nor how to go on. The reason
 * names loopwatch, keeps the message, and says what goes on: a new request is a fresh start
 * (UserPromptSubmit, BeforeAgent), but a bare answer such as "continue" or "yes" is not
 * (text/prompt-answer.ts), and a call meant to repeat belongs in `.loopwatch.json`.
 */

/** The `stopReason` of a stop whose verdict message is `message`. */
export function stopReasonFor(message: string): string {
  return (
    `loopwatch stopped this run: ${message} ` +
    'A new request from you gives the agent a fresh start (a bare "continue" or "yes" does not); a call that is meant to repeat can be listed in .loopwatch.json.'
  );
}
