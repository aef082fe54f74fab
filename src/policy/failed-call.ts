/**
 * Whether a recorded call failed, as the policy weighs its repetitions (a failure that keeps coming back
 * between new work is weighed as a dead end's failures are: see verdict-policy.ts): it has an error, or its
 * result reports its own failure (`{"success": false, ...}`: see unsuccessful-result.ts). Read from the
 * event, not the rings (in a batch those may already hold later calls); by LoopDetector and by the
 * calibration's recorder alike, so both weigh the same calls as failed.
 */
import { errorText } from '../session/observe-event.js';
import { UNSUCCESSFUL_LOOK, reportsUnsuccessful } from '../text/unsuccessful-result.js';
import type { ToolEvent } from '../types.js';
import { RawJsonString } from '../wasm/raw-json-string.js';
import { shortText } from './outcome-facts.js';

/** Whether the call of `e` failed: an error, or a result saying it did not succeed. */
export function callFailed(e: ToolEvent): boolean {
  if (e.error !== undefined) return errorText(e.error) !== undefined;
  if (e.result === undefined || e.result === null) return false;
  const text = typeof e.result === 'object' && !RawJsonString.is(e.result) ? e.result : shortText(e.result, UNSUCCESSFUL_LOOK);
  return text !== undefined && reportsUnsuccessful(text);
}
