/**
 * The report's "what this cannot tell you" panel: what loopwatch does not look at, and what the figures of
 * this scan do not mean, one sentence each. Some sentences depend on the scan (labels given or not, calls
 * marked failed or not, sessions ended early).
 */

/** What the sentences depend on. */
export interface LimitFacts {
  /** The detection preset. */
  readonly preset: string;
  /** Whether labels were read. */
  readonly labelled: boolean;
  /** Flagged sessions whose label says they finished (`submitted`) or solved their task. */
  readonly flaggedButFinished: number;
  readonly flagged: number;
  /** Calls the inputs say failed. */
  readonly toolFailures: number;
  readonly endedEarly: number;
}

const n = (x: number): string => x.toLocaleString('en-US');

/** The sentences of the panel. */
export function reportLimits(f: LimitFacts): string[] {
  const out = [
    'Loops without repeated calls: an agent that keeps making new, different calls without getting anywhere (reading file after file, rewording a search past recognition) is not flagged. Every detector looks for repetition: of calls, arguments, results, states or text.',
    f.labelled
      ? `A flag is not a failure: ${n(f.flaggedButFinished)} of the ${n(f.flagged)} flagged sessions are labelled as having finished (submitted) or solved their task. Read their timelines before trusting a break.`
      : 'A flag is not a failure: a flagged session may still have finished its task. Give the scan a labels file (--labels, or a sessions.jsonl beside the traces) to see how many did.',
    'Calls after the first break are what stopping there would have saved if nothing else changed; an agent told to change course might have recovered, or spent the calls on something else.',
    `These figures hold for these runs, their agents and models, and the ${f.preset} preset. They do not carry over to other agents, models, tasks or settings.`,
    'Verdicts come from the calls and their results alone: the agent\'s reasoning, the task, and whether its answer was right are not looked at.',
  ];
  if (f.toolFailures === 0) out.push('No call is marked as failed by these inputs (the OpenAI and SWE-agent formats never say), so dead ends found from repeated errors are undercounted.');
  if (f.endedEarly > 0) out.push(`${n(f.endedEarly)} sessions were ended early to stay within --max-sessions; their detectors started afresh when they came back, so loops across the cut may be missed.`);
  return out;
}
