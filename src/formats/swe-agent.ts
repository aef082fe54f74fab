/**
 * SWE-agent trajectories (`.traj`): one JSON document `{trajectory: [{action, observation, thought?, ...}],
 * info?, history?}` per file, one session. The tool is the first word of the action, `args` is
 * `{command: action}`, the result the observation and the text the thought. The session id is the file's
 * path relative to the folder scanned, or its base name. Steps without an action are issues, but a last step whose
 * action is empty is no call: SWE-agent 1.x ends a run that exits on an error (the cost limit, repeated
 * format errors, an environment or runtime error: `attempt_autosubmission_after_error`) with such a step, the
 * exit message its thought. A document with a `history` and no `trajectory` is read from its messages
 * (swe-agent-history.ts).
 * The format never says whether a call failed: `errorInfo` is `unknown`.
 */
import { describe } from '../options/checks.js';
import type { FormatReader, InputName } from './format-reader.js';
import { isRecord } from './json-value.js';
import type { RecordUnit } from './read-records.js';
import { readSweAgentHistory } from './swe-agent-history.js';
import { toolEvent } from './session-calls.js';
import { type TraceItem, issue } from './trace-record.js';
import { UnknownKinds } from './unknown-kinds.js';

/** The tool of a shell-like action: its first word. */
export function actionTool(action: string): string {
  const trimmed = action.trim();
  const space = trimmed.search(/\s/);
  return space === -1 ? trimmed : trimmed.slice(0, space);
}

/** The items of one trajectory document; `session` is its id; `unknown` says a history role the reader does not know once per input. */
export function* readSweAgent(unit: RecordUnit, session: string, unknown = new UnknownKinds('SWE-agent history message role')): Generator<TraceItem> {
  const v = unit.value;
  if (isRecord(v) && !Array.isArray(v.trajectory) && Array.isArray(v.history)) return yield* readSweAgentHistory(v.history, unit, session, actionTool, unknown);
  if (!isRecord(v) || !Array.isArray(v.trajectory)) {
    return yield issue('bad-record', unit.file, unit.line, `expected an object with a "trajectory" array, received ${isRecord(v) ? `an object without one` : describe(v)}`);
  }
  let step = 0;
  for (let i = 0; i < v.trajectory.length; i++) {
    const s: unknown = v.trajectory[i];
    const action = isRecord(s) ? s.action : undefined;
    if (typeof action === 'string' && action.trim() === '' && i === v.trajectory.length - 1) continue; // the step SWE-agent 1.x ends a run with when it exits on an error: no call
    const tool = typeof action === 'string' ? actionTool(action) : '';
    if (!isRecord(s) || typeof action !== 'string' || tool === '') {
      const got = isRecord(s) ? `action ${describe(action)}` : describe(s);
      yield issue('bad-record', unit.file, unit.line, `trajectory step ${i} has no action (received ${got}); skipped`);
      continue;
    }
    const text = typeof s.thought === 'string' && s.thought !== '' ? s.thought : undefined;
    yield { kind: 'call', session, event: toolEvent(tool, { command: action }, s.observation, undefined, text, step++, undefined), errorInfo: 'unknown', file: unit.file, line: unit.line };
  }
  yield { kind: 'end', session, file: unit.file };
}

/** A reader of SWE-agent trajectories for `input`: each document is a session named by the input. */
export function createSweAgentReader(input: InputName): FormatReader {
  let documents = 0;
  const unknown = new UnknownKinds('SWE-agent history message role');
  return {
    record: (unit) => readSweAgent(unit, documents++ === 0 ? input.name : `${input.name}#${documents - 1}`, unknown),
    finish: () => [],
  };
}
