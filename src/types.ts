/**
 * The data loopwatch takes in and gives back: tool-call events, detector signals and verdicts, and the
 * two-phase API's calls and decisions (live-call.ts builds those).
 * Everything here is plain, readonly data.
 */

/** One tool call of an agent session, with what came back if it is known. */
export interface ToolEvent {
  /** Name of the tool the agent called. */
  readonly tool: string;
  /** Arguments: an object, a JSON string (as OpenAI delivers tool arguments) or a plain string. */
  readonly args?: unknown;
  /** What the tool returned, when the call has run. */
  readonly result?: unknown;
  /** The error the call produced: a message, an object with a `message`, or `true` when there is no text. */
  readonly error?: unknown;
  /**
   * Text the agent produced with this call (its reasoning or streamed output), checked for chanting; read up
   * to its first `TEXT_LIMIT` (65,536) characters.
   */
  readonly text?: string;
  /** A short statement of what the call is meant to do; when given, it stands for the args in similarity. */
  readonly description?: string;
  /** The caller's step number, reported back in verdicts. */
  readonly step?: number;
  /** The model turn this call belongs to, reported back in verdicts. */
  readonly round?: number;
}

/**
 * The kinds of loop the built-in detectors report, and `failing_again`: the policy's own signal (one
 * action failing again and again, other output each time: src/policy/failing-again.ts; or call after call
 * failing: src/policy/losing-streak.ts), which only warns.
 */
export type BuiltInLoopKind =
  | 'exact_repeat'
  | 'frequency'
  | 'cycle'
  | 'semantic'
  | 'similar_args'
  | 'result_repeat'
  | 'dead_end'
  | 'state_repeat'
  | 'chanting'
  | 'failing_again';

/** Every built-in loop kind (metrics and `serve` count each under its name, any other as `custom`). */
export const BUILT_IN_LOOP_KINDS: readonly BuiltInLoopKind[] = Object.freeze([
  'exact_repeat',
  'frequency',
  'cycle',
  'semantic',
  'similar_args',
  'result_repeat',
  'dead_end',
  'state_repeat',
  'chanting',
  'failing_again',
] satisfies readonly BuiltInLoopKind[]);

/** A loop kind: a built-in one or the name a custom detector gives. */
export type LoopKind = BuiltInLoopKind | (string & {});

/** What the agent loop should do about a detection. */
export type LoopAction = 'warn' | 'ask' | 'break';

/** The next step recommended to the agent: rethink, return to where the loop began, or hand over. */
export type Recommendation = 'replan' | 'backtrack' | 'escalate';

/**
 * What the outcomes of a repeated unit say about progress:
 * `stalled`: every repetition got the same outcome (errors compared by class);
 * `changing`: every repetition got a new one, or the world changed under it (infrastructure failures);
 * `mixed`: outcomes known but neither, or empty acknowledgements that say nothing;
 * `unknown`: no outcome was given (calls checked before they ran).
 */
export type Progress = 'stalled' | 'changing' | 'mixed' | 'unknown';

/** A call of the session, as verdicts refer to it. */
export interface CallRef {
  /** Position of the call in the session, counting from 0 (exempt tools are not counted). */
  readonly index: number;
  /** The tool called (a name longer than 256 characters is cut, with `…`). */
  readonly tool: string;
  /** The call's 64-bit canonical signature as 16 hex digits. */
  readonly signature: string;
  /** The caller's step number, when the event had one. */
  readonly step?: number;
  /** The caller's round number, when the event had one. */
  readonly round?: number;
}

/** What one detector reports when it fires. Custom detectors return this from `check()`. */
export interface LoopSignal {
  /** Kind of loop found. */
  readonly kind: LoopKind;
  /** Name of the detector that found it. */
  readonly detector: string;
  /** Human-readable description of the repeated pattern. */
  readonly pattern: string;
  /** Certainty in [0, 1]. */
  readonly confidence: number;
  /** Index of the call where the loop began (defaults to the current call). */
  readonly loopStart?: number;
  /** Indices of the calls that make up the repeated unit (defaults to the current call). */
  readonly unit?: readonly number[];
  /** How many times the unit has repeated (defaults to 1). */
  readonly repeatCount?: number;
  /** What the outcomes of the repetitions say about progress (defaults to `unknown`). */
  readonly progress?: Progress;
  /**
   * True when the repetition is by similarity rather than identity (paraphrases, near-identical args):
   * the default policy then needs outcomes that show no progress (`stalled`), or no outcomes at all.
   */
  readonly fuzzy?: boolean;
  /**
   * True when the signal is about repeated *calls*, so that calls whose results keep changing (progress)
   * may be tolerated by the policy. Signals about repeated outcomes leave it false.
   */
  readonly progressGated?: boolean;
  /** For text chanting: the repeated chunk. */
  readonly chunk?: string;
}

/** The answer for one call when the session is looping. Plain data, safe to serialise. */
export interface Verdict {
  /** Kind of the most specific signal (exact repeat before cycle, ..., semantic; custom kinds last). */
  readonly kind: LoopKind;
  /** Detector of that signal. */
  readonly detector: string;
  /** Human-readable pattern of that signal (secrets redacted by default). */
  readonly pattern: string;
  /** Fused certainty in [0, 1]: the mean of the signals plus a bonus per agreeing detector. */
  readonly confidence: number;
  /** Index of the call where the loop began. */
  readonly loopStart: number;
  /** The repeated calls. */
  readonly unit: readonly CallRef[];
  /** How many times the unit has repeated. */
  readonly repeatCount: number;
  /** What the agent loop should do now. */
  readonly action: LoopAction;
  /** The next step recommended to the model. */
  readonly recommended: Recommendation;
  /** How many verdicts this session has had, this one included. */
  readonly detectionCount: number;
  /** A message ready to inject into the model's context (secrets redacted by default). */
  readonly message: string;
  /** The session the call belongs to: its id in a LoopEngine or LoopPool, the `sessionId` option of a LoopDetector. */
  readonly session: string;
  /** Index of the call this verdict is about. */
  readonly index: number;
  /** The caller's step number of that call, when given. */
  readonly step?: number;
  /** What the outcomes say about progress. */
  readonly progress: Progress;
  /** Every signal that contributed, most specific first. */
  readonly signals: readonly LoopSignal[];
  /** For text chanting: the repeated chunk (secrets redacted by default). */
  readonly chunk?: string;
}

/** A tool call in the two-phase API: a ToolEvent with the caller's id for it, when it has one. */
export interface LiveCall extends ToolEvent {
  /**
   * The caller's id of the call (a tool-use id): pairs the call's record with its proposal, so calls run in
   * parallel are told apart. Without ids, a record pairs with the latest proposal of the same tool.
   */
  readonly id?: string;
}

/** The two moments of a call: before it runs, after it ran. */
export type LivePhase = 'propose' | 'record';

/**
 * What the host does with a call:
 * - `allow`: run it (or, after it ran, say nothing);
 * - `warn`: run it and show the model `message` (after it ran: add `message` to its result);
 * - `ask`: ask a human whether to run it (the host's approval mechanism), `message` saying why;
 * - `deny`: do not run it; the model sees `message` instead of a result;
 * - `stop`: do not run it, and stop the run: it has been blocked before and keeps looping.
 */
export type LiveAction = 'allow' | 'warn' | 'ask' | 'deny' | 'stop';

/** The answer to a propose() or record(). Plain, frozen data. */
export interface LiveDecision {
  /** The session. */
  readonly session: string;
  /** Which moment this answers. */
  readonly phase: LivePhase;
  /** The caller's call id, when given. */
  readonly id?: string;
  /** What the host does. */
  readonly action: LiveAction;
  /** The text for the model (secrets redacted by default): absent for `allow`. */
  readonly message?: string;
  /** The verdict behind the decision, or null. */
  readonly verdict: Verdict | null;
  /**
   * A record whose call was already recorded without outcome (its proposal waited too long, see
   * `PENDING_PROPOSALS`, live-state.ts): ignored, so the call counts once.
   */
  readonly late?: true;
  /** loopwatch failed on this call (an internal error, or a call it could not read) and allowed it (LiveGuard). */
  readonly failedOpen?: true;
}
