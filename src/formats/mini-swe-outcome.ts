/**
 * What a mini-swe-agent 2.x observation says about its command: the tool message (chat models, `role:
 * 'tool'`) or `function_call_output` item (Responses models) it writes carries
 * `extra: {raw_output, returncode, timestamp, exception_info?}` beside the rendered content
 * (`format_toolcall_observation_messages`, src/minisweagent/models/utils/actions_toolcall*.py). The exit
 * status is the outcome: 0 ran cleanly, any other a failure. `-1` is mini-swe-agent's own mark: with an
 * `exception_info` the command raised (a timeout, the environment's error: a failure), except "action was
 * not executed", the padding for a turn's commands that never ran (no outcome). Other chat logs have no
 * `extra`: read as before, outcome unknown.
 */
import { isRecord } from './json-value.js';
import type { ErrorInfo } from './trace-record.js';

/** mini-swe-agent's `exception_info` for a command of the turn that was not run. */
export const NOT_EXECUTED = 'action was not executed';

/** An observation's outcome: `error` is set (the observation's content when a non-empty string, else true) when it failed. */
export interface ReturnCodeOutcome {
  readonly errorInfo: ErrorInfo;
  readonly error?: unknown;
}

/** The outcome `extra` (an observation's `extra`, any value) gives the observation of `content`; unknown when it has no `returncode`. */
export function returnCodeOutcome(extra: unknown, content: unknown): ReturnCodeOutcome {
  if (!isRecord(extra) || typeof extra.returncode !== 'number') return { errorInfo: 'unknown' };
  const code = extra.returncode;
  const failed = { errorInfo: 'known', error: typeof content === 'string' && content !== '' ? content : true } as const;
  if (code === 0) return { errorInfo: 'absent' };
  if (code !== -1) return failed;
  const info = extra.exception_info;
  return typeof info === 'string' && info !== '' && info !== NOT_EXECUTED ? failed : { errorInfo: 'unknown' };
}
