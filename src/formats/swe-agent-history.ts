/**
 * A SWE-agent trajectory that keeps only its `history` (the messages the model saw: demonstrations such as
 * `trajectories/demonstrations/function_calling_simple.traj` are written so): each `assistant` message with an
 * `action` is a call as a trajectory step is (the tool the action's first word, args `{command: action}`,
 * the `thought` its text), the message after it (the observation, `user` or `tool`) its result. Before, such
 * a file was skipped whole (`bad-record`, exit 2).
 */
import { partsText } from './gemini-parts.js';
import { isRecord } from './json-value.js';
import type { RecordUnit } from './read-records.js';
import { toolEvent } from './session-calls.js';
import type { TraceItem } from './trace-record.js';
import type { UnknownKinds } from './unknown-kinds.js';

/** Message roles of a SWE-agent history; another is said once per input. */
const ROLES: ReadonlySet<string> = new Set(['system', 'user', 'assistant', 'tool']);

/** The tool of a shell-like action: its first word (swe-agent.ts's actionTool, given to avoid an import cycle). */
type ActionTool = (action: string) => string;

/** The calls of the history `history` of one document, session `session`, found at `unit`; `unknown` says a role it does not know once per input. */
export function* readSweAgentHistory(history: readonly unknown[], unit: RecordUnit, session: string, actionTool: ActionTool, unknown: UnknownKinds): Generator<TraceItem> {
  let step = 0;
  for (let i = 0; i < history.length; i++) {
    const m = history[i];
    if (isRecord(m) && typeof m.role === 'string') {
      const said = unknown.unless(ROLES, m.role, unit.file, unit.line);
      if (said !== null) yield said;
    }
    if (!isRecord(m) || m.role !== 'assistant' || typeof m.action !== 'string' || actionTool(m.action) === '') continue;
    const next = history[i + 1];
    const answered = isRecord(next) && (next.role === 'user' || next.role === 'tool');
    const result = answered ? (partsText(next.content) ?? next.content) : undefined;
    const text = typeof m.thought === 'string' && m.thought !== '' ? m.thought : undefined;
    yield { kind: 'call', session, event: toolEvent(actionTool(m.action), { command: m.action }, result, undefined, text, step++, undefined), errorInfo: 'unknown', file: unit.file, line: unit.line };
  }
  yield { kind: 'end', session, file: unit.file };
}
