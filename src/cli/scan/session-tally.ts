/**
 * What a scan keeps of one session while it is live: its calls, how far it climbed the action ladder, where
 * its first verdict and first break-level verdict came, the loop kinds and tools its verdicts named, and the
 * calls the checker refused or the input said failed. Small and fixed-size except for the kind and tool
 * counts; once the session has ended it is folded into the scan's bounded aggregate and dropped, so a
 * scan's memory does not grow with the sessions it has seen.
 *
 * A session is its input file and its id: the same id in two files is two sessions.
 */
import type { LoopAction, Verdict } from '../../types.js';

/** Rank of each action on the ladder (0: no verdict). */
export const ACTION_RANK: Readonly<Record<LoopAction, number>> = { warn: 1, ask: 2, break: 3 };

/** The first verdict of a session, as reports show it. */
export interface FirstVerdict {
  readonly index: number;
  /** The step the input gave the call, or its index when it gave none. */
  readonly step: number;
  readonly kind: string;
  readonly action: LoopAction;
  /** Index of the call where the loop began. */
  readonly loopStart: number;
  /** Step of that call, when the scan still knew it (null otherwise). */
  readonly loopStartStep: number | null;
}

/** Recent steps of a session whose steps are not its call indices, so a loop start can be named by step. */
const STEP_MEMORY = 256;

/** One session's tally. */
export class SessionTally {
  /** Calls read. */
  calls = 0;
  /** Verdicts at or above the reporting threshold. */
  verdicts = 0;
  /** Highest action reached (reported verdicts only), or null. */
  worst: LoopAction | null = null;
  /** Highest action reached by any verdict, reported or not (what `--fail-on` looks at), or null. */
  worstAny: LoopAction | null = null;
  first: FirstVerdict | null = null;
  /** Index of the first break-level verdict, or null. */
  firstBreak: number | null = null;
  /** Reported verdicts per loop kind. */
  readonly kinds = new Map<string, number>();
  /** Reported verdicts per tool of the call they were about. */
  readonly tools = new Map<string, number>();
  /** Calls the checker refused (invalid events, lost sessions): read but never checked. */
  refused = 0;
  /** Calls the input says failed (their tool returned an error; formats that never say count none). */
  toolFailures = 0;
  /** Whether the session was ended early (to stay within the live-session cap) at least once. */
  endedEarly = false;
  /**
   * Index of the call the checker's current run of this session began with: 0, or the calls before it when
   * the session was ended early and came back (the checker numbers calls from 0 again, the scan does not).
   */
  base = 0;
  /**
   * The number of the scan's batch its latest call went into (scan-pipeline.ts): a fresh start after a
   * prompt waits until that batch is handed over, so it comes after the calls before the prompt.
   */
  batch = -1;
  /**
   * Ring of recent steps, made only once a step differs from its index. It holds every call from
   * STEP_MEMORY before the oldest call whose verdict is still to come up to the newest call read, growing
   * while calls are read ahead of their verdicts, so what a verdict can name is the same whatever the batch
   * size (a fixed ring of 256 was overwritten by calls read ahead: a loop's start step depended on it).
   */
  private steps: Float64Array | null = null;
  /** Index of the newest call whose verdict has been read (see {@link noteSettled}). */
  private settled = -1;

  constructor(
    /** Session id, as the input names it. */
    readonly session: string,
    /** The input the session was read from. */
    readonly file: string,
    /** Order of the session's first call in the scan (ties in rankings are broken by it). */
    readonly seq: number,
  ) {}

  /** Notes that call `index` (the session's next call) carries `step`. */
  noteStep(index: number, step: number | undefined): void {
    if (this.first !== null || step === undefined || (step === index && this.steps === null)) return;
    if (this.steps === null) {
      this.steps = new Float64Array(STEP_MEMORY).fill(NaN);
      for (let k = Math.max(0, index - STEP_MEMORY); k < index; k++) this.steps[k % STEP_MEMORY] = k;
    }
    // the slot holds call index - length: grow while a verdict still to come can ask for that call
    while (index - this.steps.length >= this.settled + 1 - STEP_MEMORY) this.steps = grownRing(this.steps, index);
    this.steps[index % this.steps.length] = step;
  }

  /** Notes that the verdict of call `index` has been read: calls STEP_MEMORY before it can be let go. */
  noteSettled(index: number): void {
    if (index > this.settled) this.settled = index;
  }

  /** The step of call `index`, when still known: within STEP_MEMORY calls of the verdict's call `current`. */
  private stepOf(index: number, current: number): number | null {
    if (this.steps === null) return index;
    if (current - index >= STEP_MEMORY || index < 0) return null;
    const s = this.steps[index % this.steps.length] as number;
    return Number.isNaN(s) ? null : s;
  }

  /** Notes a verdict's action, reported or not. */
  noteAny(action: LoopAction): void {
    if (this.worstAny === null || ACTION_RANK[action] > ACTION_RANK[this.worstAny]) this.worstAny = action;
  }

  /** Records a reported verdict (numbered in the scan's terms) about call `index` of tool `tool`. */
  addVerdict(v: Verdict, index: number, tool: string): void {
    this.verdicts++;
    if (this.worst === null || ACTION_RANK[v.action] > ACTION_RANK[this.worst]) this.worst = v.action;
    if (this.first === null) {
      this.first = Object.freeze({ index, step: v.step ?? index, kind: v.kind, action: v.action, loopStart: v.loopStart, loopStartStep: this.stepOf(v.loopStart, index) });
      this.steps = null;
    }
    if (v.action === 'break' && this.firstBreak === null) this.firstBreak = index;
    this.kinds.set(v.kind, (this.kinds.get(v.kind) ?? 0) + 1);
    this.tools.set(tool, (this.tools.get(tool) ?? 0) + 1);
  }

  /** Calls made after the first break-level verdict: what stopping there would have saved. */
  get wastedCalls(): number {
    return this.firstBreak === null ? 0 : this.calls - this.firstBreak - 1;
  }

  /** Whether any verdict of the session reached `action` or above. */
  reached(action: LoopAction): boolean {
    return this.worstAny !== null && ACTION_RANK[this.worstAny] >= ACTION_RANK[action];
  }
}

/** `ring` at twice its length, holding the same calls (those before `next`, the call about to be written). */
function grownRing(ring: Float64Array, next: number): Float64Array {
  const out = new Float64Array(ring.length * 2).fill(NaN);
  for (let k = Math.max(0, next - ring.length); k < next; k++) out[k % out.length] = ring[k % ring.length] as number;
  return out;
}
