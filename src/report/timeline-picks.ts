/**
 * Which sessions get a timeline in the report: the `worst` worst (ranked as the summary ranks them) and a
 * sample of up to {@link TIMELINE_SAMPLE} others, drawn uniformly from every session offered (reservoir
 * sampling, seeded, so the same input gives the same sample). Each session is offered once, when it ends;
 * at most `worst + TIMELINE_SAMPLE` are held at any time, whatever the number of sessions.
 */
import type { SessionReport } from '../cli/scan/scan-summary.js';
import { WorstSessions } from '../cli/scan/worst-sessions.js';
import { seededRandom } from '../fingerprint/seeded-random.js';

/** Sessions sampled besides the worst (none when no worst are asked for). */
export const TIMELINE_SAMPLE = 5;
/** Worst sessions given a timeline by default (`--timelines`). */
export const DEFAULT_TIMELINES = 20;
/** Most worst sessions `--timelines` may ask for. */
export const MAX_TIMELINES = 1000;

/** A session picked for a timeline. */
export interface TimelinePick {
  readonly report: SessionReport;
  /** Its row in the report's table. */
  readonly row: number;
  readonly why: 'worst' | 'sample';
}


/** The sessions picked so far. */
export class TimelinePicks {
  private readonly worst: WorstSessions<number>;
  private readonly sample: { report: SessionReport; row: number }[] = [];
  private readonly sampleSize: number;
  private readonly random = seededRandom(0x5eed);
  private offered = 0;

  constructor(worst: number) {
    this.worst = new WorstSessions<number>(worst);
    this.sampleSize = worst > 0 ? TIMELINE_SAMPLE : 0;
  }

  /** Offers an ended session, its row in the table and its order in the scan. */
  offer(report: SessionReport, row: number, seq: number): void {
    this.worst.offer({ r: report, seq, extra: row });
    const n = this.offered++;
    if (this.sampleSize === 0) return;
    if (n < this.sampleSize) this.sample.push({ report, row });
    else {
      const j = Math.floor(this.random() * (n + 1));
      if (j < this.sampleSize) this.sample[j] = { report, row };
    }
  }

  /** The picks: the worst, worst first, then the sampled sessions that are not among them, by row. */
  picks(): TimelinePick[] {
    const out: TimelinePick[] = this.worst.list().map((e) => ({ report: e.r, row: e.extra, why: 'worst' }));
    const taken = new Set(out.map((p) => p.row));
    const rest = this.sample.filter((s) => !taken.has(s.row)).sort((a, b) => a.row - b.row);
    return [...out, ...rest.map((s): TimelinePick => ({ ...s, why: 'sample' }))];
  }
}
