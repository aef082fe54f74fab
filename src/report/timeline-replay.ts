/**
 * The report's timelines, made after the scan: the files holding the picked sessions are read again (named
 * as the scan named them: the paths given are walked again and only those files read) and each picked
 * session's calls replayed through one detector, as `loopwatch explain` does. Memory: one detector and one
 * bounded timeline per picked session; nothing of the other sessions is kept. Standard input cannot be read
 * twice: its sessions get no timeline, and the report says so.
 */
import { DEFAULT_MAX_LINE_BYTES } from '../formats/line-reader.js';
import { STDIN_PATH, listInputs } from '../formats/list-inputs.js';
import { readInput } from '../formats/read-input.js';
import { type FormatName, STDIN_NAME } from '../formats/trace-record.js';
import type { LoopDetectorOptions } from '../options/options.js';
import type { LoopAction } from '../types.js';
import { sessionKey } from '../cli/scan/scan-pipeline.js';
import { SessionReplay } from '../cli/session-replay.js';
import type { ReportTimeline } from './report-data.js';
import { TimelineBuilder } from './timeline-builder.js';
import type { TimelinePick } from './timeline-picks.js';

/** What the replay reads and how it checks. */
export interface ReplayPlan {
  /** The paths the scan was given. */
  readonly paths: readonly string[];
  readonly format: FormatName | undefined;
  /** Files the scan's folder walk passed over. */
  readonly ignore: readonly string[];
  readonly options: LoopDetectorOptions;
  /** Lowest action shown (the scan's `--min-action`). */
  readonly minAction: LoopAction;
}

/** The timelines made, and why some picks have none. */
export interface ReplayedTimelines {
  readonly timelines: ReportTimeline[];
  /** Why picked sessions have no timeline (standard input), or null. */
  readonly missing: string | null;
  readonly millis: number;
}

interface Replaying {
  readonly builder: TimelineBuilder;
  replay: SessionReplay | null;
}

/** Timelines of `picks`, from the inputs of `plan` read again. */
export async function replayTimelines(picks: readonly TimelinePick[], plan: ReplayPlan): Promise<ReplayedTimelines> {
  const t0 = performance.now();
  const sessions = new Map<string, Replaying>();
  const files = new Set<string>();
  let fromStdin = 0;
  for (const p of picks) {
    if (p.report.file === STDIN_NAME) {
      fromStdin++;
      continue;
    }
    files.add(p.report.file);
    sessions.set(sessionKey(p.report.file, p.report.session), { builder: new TimelineBuilder(p.report, p.row, p.why, plan.minAction), replay: null });
  }
  const ignore = new Set(plan.ignore);
  const done = new Set<string>();
  const options = { maxLineBytes: DEFAULT_MAX_LINE_BYTES, ...(plan.format === undefined ? {} : { format: plan.format }) };
  for (const path of plan.paths) {
    if (path === STDIN_PATH || done.size === files.size) continue;
    for await (const input of listInputs(path, ignore)) {
      if (input.kind !== 'file' || !files.has(input.file) || done.has(input.file)) continue;
      done.add(input.file);
      for await (const item of readInput(input.file, input, options)) {
        if (item.kind !== 'call') continue;
        const s = sessions.get(sessionKey(item.file, item.session));
        if (s === undefined) continue;
        s.replay ??= new SessionReplay(plan.options, item.session);
        s.builder.add(s.replay.next(item).row, item.errorInfo === 'known');
      }
    }
  }
  const timelines = [...sessions.values()].map((s) => s.builder.finish());
  const missing = fromStdin === 0 ? null : `${fromStdin} of the sessions picked ${fromStdin === 1 ? 'was' : 'were'} read from standard input, which cannot be read twice: scan files to see their timelines`;
  return { timelines, missing, millis: performance.now() - t0 };
}
