/**
 * The session replay behind `explain` and the report's timelines (src/cli/session-replay.ts): rows numbered
 * as the session numbers its calls, a verdict's loop start moved past the exempt and refused calls the
 * detector does not count, and a refused call shown without a verdict.
 */
import { describe, expect, it } from 'vitest';
import { SessionReplay } from '../src/cli/session-replay.js';
import type { TraceCall } from '../src/formats/trace-record.js';
import type { ToolEvent } from '../src/types.js';

const call = (event: ToolEvent, line: number): TraceCall => ({ kind: 'call', session: 's', event, errorInfo: 'unknown', file: 'f.jsonl', line });

describe('session replay', () => {
  it('should number loop starts as the session does when exempt and refused calls come before the loop', () => {
    const replay = new SessionReplay({ tools: { heartbeat: { exempt: true } } }, 's');
    const events: ToolEvent[] = [
      { tool: 'heartbeat' },
      { tool: 'read', args: { path: 'a' }, result: 'x' },
      { tool: 'heartbeat' },
      { tool: '' }, // refused: a call needs a tool name
      ...Array.from({ length: 8 }, (): ToolEvent => ({ tool: 'bash', args: { command: 'pytest' }, result: '1 failed' })),
    ];
    const out = events.map((e, i) => replay.next(call(e, i + 1)));
    expect(out.map((r) => r.row.index)).toEqual(events.map((_, i) => i));
    expect(out[3]?.refused).toBeInstanceOf(Error);
    expect(out[3]?.row.verdict).toBeNull();
    const flagged = out.filter((r) => r.row.verdict !== null);
    expect(flagged.length).toBeGreaterThan(0);
    // the loop is the bash calls: it begins at the session's call 4, whatever the detector numbered it
    for (const r of flagged) expect(r.row.loopStart).toBe(4);
  });
});
