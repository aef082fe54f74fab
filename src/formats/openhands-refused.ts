/**
 * OpenHands calls the harness refused. When the model's response cannot be made into an action (a tool
 * that does not exist, arguments that are not JSON or miss a required one, no action at all), the agent
 * controller's step catches the error (`LLMMalformedActionError`, `LLMNoActionError`,
 * `FunctionCallValidationError`, `FunctionCallNotExistsError`, ...) and writes an `ErrorObservation` of its
 * message with source `agent` and no `cause` in place of the action (openhands/controller/agent_controller.py,
 * `_step`). That turn is a call the model made and the harness answered with a failure: read as a call of
 * {@link REFUSED_TOOL}, args `{}`, its message the result and the failure, so a run stuck sending malformed
 * calls is seen (before, it read as quiet: no calls at all). The controller's own reports through the same
 * observation (older versions' `report_error`: stuck, iteration or budget limit, an unexpected error, a
 * delegate's error) are no calls: told by their opening words, looked at up to {@link CONTROL_LOOK} characters.
 */
import { isRecord } from './json-value.js';

/** The tool a refused call is a call of (the name the public traces give a turn without a parseable action). */
export const REFUSED_TOOL = '_invalid_action';
/** The most characters of an error's content looked at for a controller report's opening words. */
export const CONTROL_LOOK = 200;

/** Opening words of the errors the controller reports about itself, not about the model's response. */
const CONTROL_REPORTS = [
  'Agent got stuck in a loop',
  'Agent reached maximum',
  'Task budget exceeded',
  'There was an unexpected error while running the agent',
  'Delegator agent encountered an error',
] as const;

/** Whether observation event `e` (no `cause`; `flat` an old flattened history's) is a call the harness refused: an agent's `error` observation other than a controller report. */
export function isRefusedCall(e: Readonly<Record<string, unknown>>, flat: boolean): boolean {
  if (e.observation !== 'error' || (!flat && e.source !== 'agent')) return false;
  const content = typeof e.content === 'string' ? e.content.slice(0, CONTROL_LOOK).trimStart() : '';
  return !CONTROL_REPORTS.some((r) => content.startsWith(r));
}

/** The content of a refused call's observation, as its result. */
export function refusedResult(e: Readonly<Record<string, unknown>>): unknown {
  return e.content ?? (isRecord(e.extras) ? e.extras : undefined);
}
