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

/** Mutable counters behind a stats snapshot (small: one per session, so maps are made on first use). */
export class StatsTally {
  checks = 0;
  skipped = 0;
  detections = 0;
  falsePositives = 0;
  tolerated = 0;
  blocked = 0;
  confidenceSum = 0;
  warn = 0;
  ask = 0;
  break = 0;
  /** Verdicts by kind; null until the first verdict. */
  byKind: Map<string, number> | null = null;

  /** Counts one verdict. */
  addVerdict(kind: LoopKind, action: LoopAction, confidence: number): void {
    this.detections++;
    this.confidenceSum += confidence;
    const byKind = (this.byKind ??= new Map<string, number>());
    byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
    this[action]++;
  }

  /** Writes the counters, for a session snapshot, with `checks` and `skipped` more of those two (a session keeps them apart). */
  save(w: ByteWriter, checks = 0, skipped = 0): void {
    for (const v of [this.checks + checks, this.skipped + skipped, this.detections, this.falsePositives, this.tolerated, this.confidenceSum, this.warn, this.ask, this.break, this.blocked]) w.f64(v);
    const kinds = this.byKind === null ? [] : [...this.byKind];
    w.u32(kinds.length);
    for (const [k, n] of kinds) {
      w.str(k);
      w.f64(n);
    }
  }

  /** Reads what save() wrote. */
  load(r: ByteReader): void {
    this.checks = r.f64();
    this.skipped = r.f64();
    this.detections = r.f64();
    this.falsePositives = r.f64();
    this.tolerated = r.f64();
    this.confidenceSum = r.f64();
    this.warn = r.f64();
    this.ask = r.f64();
    this.break = r.f64();
    this.blocked = r.f64();
    const n = r.count(1 << 16, 'verdict kinds');
    this.byKind = n === 0 ? null : new Map();
    for (let i = 0; i < n; i++) (this.byKind as Map<string, number>).set(r.str(), r.f64());
  }

  /** A frozen snapshot. */
  snapshot(): DetectionStats {
    return Object.freeze({
      checks: this.checks,
      skipped: this.skipped,
      detections: this.detections,
      byKind: Object.freeze(this.byKind === null ? {} : Object.fromEntries(this.byKind)),
      byAction: Object.freeze({ warn: this.warn, ask: this.ask, break: this.break }),
      averageConfidence: this.detections === 0 ? 0 : Math.round((this.confidenceSum / this.detections) * 10000) / 10000,
      falsePositives: this.falsePositives,
      tolerated: this.tolerated,
      blocked: this.blocked,
    });
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
