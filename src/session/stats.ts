/**
 * Detection statistics: per session, and summed over many sessions by a shared {@link StatsAggregate}.
 */
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';
import type { LoopAction, LoopKind } from '../types.js';

/** A snapshot of detection statistics. */
export interface DetectionStats {
  /** Calls checked (exempt tools included). */
  readonly checks: number;
  /** Calls of exempt tools, not recorded. */
  readonly skipped: number;
  /** Verdicts given. */
  readonly detections: number;
  /** Verdicts by the kind of their strongest signal. */
  readonly byKind: Readonly<Partial<Record<LoopKind, number>>>;
  /** Verdicts by action. */
  readonly byAction: Readonly<Record<LoopAction, number>>;
  /** Mean fused confidence of the verdicts (0 when there are none). */
  readonly averageConfidence: number;
  /** Verdicts the caller reported as false positives. */
  readonly falsePositives: number;
  /** Signals the policy set aside because the repeated calls kept getting new results. */
  readonly tolerated: number;
  /** Proposed calls blocked before they ran (LoopDetector.propose: deny or stop); their verdicts count in `detections`. */
  readonly blocked: number;
}

/** Statistics of one session. */
export interface SessionStats extends DetectionStats {
  /** The session's id (the `sessionId` option). */
  readonly sessionId: string;
}

/** Totals over the sessions that share one aggregate. */
export interface AggregateStats extends DetectionStats {
  /** Sessions that have reported into the aggregate. */
  readonly sessions: number;
}

/**
 * Mutable counters of a session's verdicts behind a stats snapshot (small: one per session that has had a
 * verdict or a tolerated signal; the session keeps its checks and skipped calls itself, beside it).
 */
export class VerdictTally {
  detections = 0;
  falsePositives = 0;
  tolerated = 0;
  blocked = 0;
  confidenceSum = 0;
  warn = 0;
  ask = 0;
  break = 0;
  /**
   * Verdicts by kind, in the order their kinds first came: kind, count, kind, count...; null until the
   * first verdict. An array of the exact length rather than a Map (whose table alone took ~150 B of a session).
   */
  private kinds: (string | number)[] | null = null;

  /** Counts one verdict. */
  addVerdict(kind: LoopKind, action: LoopAction, confidence: number): void {
    this.detections++;
    this.confidenceSum += confidence;
    this.addKind(kind, 1);
    this[action]++;
  }

  /** Adds `n` verdicts of `kind`. */
  private addKind(kind: string, n: number): void {
    const kinds = this.kinds;
    if (kinds === null) {
      this.kinds = [kind, n];
      return;
    }
    for (let k = 0; k < kinds.length; k += 2) {
      if (kinds[k] === kind) {
        kinds[k + 1] = (kinds[k + 1] as number) + n;
        return;
      }
    }
    this.kinds = [...kinds, kind, n];
  }

  /** Writes the counters, for a session snapshot, with the session's `checks` and `skipped`. */
  save(w: ByteWriter, checks = 0, skipped = 0): void {
    for (const v of [checks, skipped, this.detections, this.falsePositives, this.tolerated, this.confidenceSum, this.warn, this.ask, this.break, this.blocked]) w.f64(v);
    const kinds = this.kinds ?? [];
    w.u32(kinds.length / 2);
    for (let k = 0; k < kinds.length; k += 2) {
      w.str(kinds[k] as string);
      w.f64(kinds[k + 1] as number);
    }
  }

  /** Reads what save() wrote; returns the checks and skipped calls it holds (the session's to keep). */
  load(r: ByteReader): readonly [checks: number, skipped: number] {
    const checks = r.f64();
    const skipped = r.f64();
    this.detections = r.f64();
    this.falsePositives = r.f64();
    this.tolerated = r.f64();
    this.confidenceSum = r.f64();
    this.warn = r.f64();
    this.ask = r.f64();
    this.break = r.f64();
    this.blocked = r.f64();
    const n = r.count(1 << 16, 'verdict kinds');
    this.kinds = null;
    // as a Map read them: a kind named twice keeps its first place and its last count
    for (let i = 0; i < n; i++) this.setKind(r.str(), r.f64());
    return [checks, skipped];
  }

  private setKind(kind: string, n: number): void {
    const kinds = this.kinds;
    if (kinds !== null) {
      for (let k = 0; k < kinds.length; k += 2) {
        if (kinds[k] === kind) {
          kinds[k + 1] = n;
          return;
        }
      }
    }
    this.kinds = kinds === null ? [kind, n] : [...kinds, kind, n];
  }

  /** A frozen snapshot, with `checks` and `skipped` calls. */
  snapshot(checks = 0, skipped = 0): DetectionStats {
    const byKind: Record<string, number> = {};
    const kinds = this.kinds ?? [];
    for (let k = 0; k < kinds.length; k += 2) byKind[kinds[k] as string] = kinds[k + 1] as number;
    return Object.freeze({
      checks,
      skipped,
      detections: this.detections,
      byKind: Object.freeze(byKind),
      byAction: Object.freeze({ warn: this.warn, ask: this.ask, break: this.break }),
      averageConfidence: this.detections === 0 ? 0 : Math.round((this.confidenceSum / this.detections) * 10000) / 10000,
      falsePositives: this.falsePositives,
      tolerated: this.tolerated,
      blocked: this.blocked,
    });
  }
}

/** A tally that counts checks and skipped calls too (the totals of many sessions: StatsAggregate). */
export class StatsTally extends VerdictTally {
  checks = 0;
  skipped = 0;

  override save(w: ByteWriter, checks = 0, skipped = 0): void {
    super.save(w, this.checks + checks, this.skipped + skipped);
  }

  override load(r: ByteReader): readonly [checks: number, skipped: number] {
    const [checks, skipped] = super.load(r);
    this.checks = checks;
    this.skipped = skipped;
    return [checks, skipped];
  }

  override snapshot(checks = 0, skipped = 0): DetectionStats {
    return super.snapshot(this.checks + checks, this.skipped + skipped);
  }
}

/** Totals over many sessions: pass one instance as the `stats` option of each LoopDetector. */
export class StatsAggregate {
  /** @internal */
  readonly tally = new StatsTally();
  private joined = 0;

  /** @internal Called once by each LoopDetector that reports here. */
  join(): void {
    this.joined++;
  }

  /** Totals so far. */
  snapshot(): AggregateStats {
    return Object.freeze({ ...this.tally.snapshot(), sessions: this.joined });
  }
}
