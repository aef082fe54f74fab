/**
 * Which Claude Code texts say the person declined a call (src/formats/claude-code-declined.ts, read by the
 * hook's PostToolBatch and by `scan` of a hook payload log). Claude Code's known wordings are pinned here as
 * its transcripts hold them (the eight sets); the failure mode is the safe one (newuser6): a wording Claude
 * Code may change to is not recognised, so its call is left as it was before PostToolBatch was read (in
 * flight until overdue), and a result that only begins like one (an `echo` of the first sentence) is no
 * decline (before: any text beginning "The user doesn't want to proceed with this tool use." or "...to take
 * this action right now." was). A call that ran is never taken as not run, whatever its text.
 */
import { describe, expect, it } from 'vitest';
import { isDeclinedResult, isDeclinedText } from '../src/formats/claude-code-declined.js';
import { AGENTS } from '../src/hooks/agents.js';
import { LoopDetector } from '../src/index.js';

const FIRST = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). ";
const STOP = 'STOP what you are doing and wait for the user to tell you how to proceed.';
/** Claude Code's wordings for a declined call, as its transcripts hold them. */
const KNOWN = {
  without: `${FIRST}${STOP}`,
  withFeedback: `${FIRST}To tell you how to proceed, the user said:\nkeep the build folder, run the tests`,
  withFeedbackOlder: `${FIRST}The user provided the following reason for the rejection:  use pnpm`,
  older: `The user doesn't want to take this action right now. ${STOP}`,
};
/** Texts that are not one of them: an echo of a first sentence, a rewording, a prefix. */
const UNKNOWN = [
  "The user doesn't want to proceed with this tool use.",
  "The user doesn't want to proceed with this tool use.\n",
  "The user doesn't want to take this action right now.",
  "The user doesn't want to proceed with this tool use. The tool use was rejected.",
  `${FIRST}The person said: no`,
  'The user declined this tool use. To tell you how to proceed, the user said:\nno',
  `Error: ${KNOWN.without}`,
  ` ${KNOWN.without}`,
  FIRST,
];

describe("Claude Code's texts for a declined call", () => {
  it('should know each wording Claude Code writes, as a string or text blocks', () => {
    for (const text of Object.values(KNOWN)) {
      expect(isDeclinedText(text)).toBe(true);
      expect(isDeclinedResult([{ type: 'text', text }])).toBe(true);
    }
  });

  it('should take no other text for one (before: any text beginning with a first sentence)', () => {
    expect(UNKNOWN.filter(isDeclinedText)).toEqual([]);
    expect([undefined, null, { stdout: KNOWN.without }, [{ type: 'image' }]].map(isDeclinedResult)).toEqual([false, false, false, false]);
  });

  it('should leave a waiting call of an unknown wording in flight, as before PostToolBatch was read', () => {
    const base = { session_id: 's', transcript_path: '/nonexistent/s.jsonl', cwd: '/app', hook_event_name: 'PostToolBatch' };
    const entries = UNKNOWN.map((text, i) => ({ tool_name: 'Bash', tool_input: { command: 'echo' }, tool_use_id: `t${i}`, tool_response: text }));
    expect(AGENTS['claude-code'].decode({ ...base, tool_calls: entries }, 'PostToolBatch', 'decline').declined).toEqual([]);
  });

  it('should never take a call that ran as not run, even when its result is the text', () => {
    const call = { id: 'c1', tool: 'Bash', args: { command: 'cat notes.txt' } };
    const d = new LoopDetector();
    d.expectEveryOutcome();
    d.propose(call);
    d.record({ ...call, result: KNOWN.withFeedback });
    const before = d.snapshot();
    const declined = AGENTS['claude-code'].decode({ session_id: 's', hook_event_name: 'PostToolBatch', tool_calls: [{ tool_name: 'Bash', tool_input: call.args, tool_use_id: 'c1', tool_response: KNOWN.withFeedback }] }, 'PostToolBatch', 'decline').declined ?? [];
    expect(declined).toHaveLength(1);
    for (const c of declined) d.didNotRun(c);
    expect(Buffer.from(d.snapshot()).equals(Buffer.from(before))).toBe(true);
    expect(d.stats().checks).toBe(1);
  });
});
