/**
 * The detector x action matrix: for each detector (the one behind a verdict's most specific signal), the
 * verdicts it gave at warn, ask and break, and the sessions that had at least one of them. Folded in a
 * verdict at a time; at most {@link MAX_DETECTORS} detectors by name (custom detectors could be many), the
 * rest counted together. A session's cells are remembered on its tally through a WeakMap, so nothing is
 * kept once the session is gone.
 */
import type { LoopAction, Verdict } from '../types.js';
import { type MatrixRow, OTHER_DETECTORS, type ReportAction } from './report-data.js';

export { OTHER_DETECTORS };

/** Detectors counted by name; further ones are counted under {@link OTHER_DETECTORS}. */
export const MAX_DETECTORS = 64;

interface Cells {
  readonly verdicts: Record<ReportAction, number>;
  readonly sessions: Record<ReportAction, number>;
}

/** Verdicts and sessions per detector and action. */
export class VerdictMatrix {
  private readonly rows = new Map<string, Cells>();
  /** Per session (its tally object): the cells it already counts in. */
  private readonly seen = new WeakMap<object, Set<string>>();

  /** Counts a reported verdict of the session `session` (any object standing for it while it lives). */
  add(v: Verdict, session: object): void {
    const name = this.rows.has(v.detector) || this.rows.size < MAX_DETECTORS ? v.detector : OTHER_DETECTORS;
    let cells = this.rows.get(name);
    if (cells === undefined) {
      cells = { verdicts: { warn: 0, ask: 0, break: 0 }, sessions: { warn: 0, ask: 0, break: 0 } };
      this.rows.set(name, cells);
    }
    const action: LoopAction = v.action;
    cells.verdicts[action]++;
    let counted = this.seen.get(session);
    if (counted === undefined) this.seen.set(session, (counted = new Set()));
    const key = `${action}\u0000${name}`;
    if (counted.has(key)) return;
    counted.add(key);
    cells.sessions[action]++;
  }

  /** The rows, most verdicts at break first, then at ask, then at warn, then by name. */
  rowsByWeight(): MatrixRow[] {
    const weight = (c: Cells): number[] => [c.verdicts.break, c.verdicts.ask, c.verdicts.warn];
    return [...this.rows]
      .sort(([an, a], [bn, b]) => {
        const wa = weight(a);
        const wb = weight(b);
        for (let i = 0; i < wa.length; i++) if (wa[i] !== wb[i]) return (wb[i] as number) - (wa[i] as number);
        return an < bn ? -1 : an > bn ? 1 : 0;
      })
      .map(([detector, c]) => ({ detector, verdicts: { ...c.verdicts }, sessions: { ...c.sessions } }));
  }
}
