/**
 * Scans recorded trajectories in the loopwatch events format (`events.jsonl[.gz]`: one tool call per line,
 * `{session, step?, tool, args, result?, error?, text?}`) with a detector per session, and tallies how
 * far each session climbed the action ladder, split by how the session ended (from `sessions.jsonl`).
 */
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { LoopDetector } from '../session/loop-detector.js';
import type { LoopDetectorOptions } from '../options/options.js';
import type { LoopAction, Verdict } from '../types.js';

/** What a session's metadata says about it. */
export interface SessionInfo {
  readonly session: string;
  readonly agent: string;
  readonly exit_status: string;
}

/** One session's outcome of the scan. */
export interface ScannedSession {
  readonly session: string;
  readonly agent: string;
  readonly exitStatus: string;
  readonly calls: number;
  /** Highest action reached, or null when no verdict. */
  readonly worst: LoopAction | null;
  /** Index of the first break-level verdict, or null. */
  readonly firstBreak: number | null;
  readonly verdicts: number;
}

/** Counts for one group of sessions. */
export interface ScanGroup {
  sessions: number;
  warned: number;
  broken: number;
}

/** The result of a scan. */
export interface TraceScan {
  readonly events: number;
  readonly skippedLines: number;
  readonly sessions: readonly ScannedSession[];
  readonly byExitStatus: Readonly<Record<string, ScanGroup>>;
  readonly byKind: Readonly<Record<string, number>>;
  readonly millis: number;
  /** Of which in LoopDetector.check. */
  readonly detectMillis: number;
}

const RANK: Readonly<Record<LoopAction, number>> = { warn: 1, ask: 2, break: 3 };

/** The traces folder beside the repository, if present. */
export function defaultTraceDir(repoRoot: string): string | null {
  const dir = join(repoRoot, '..', 'shared', 'data', 'traces');
  return existsSync(join(dir, 'events.jsonl.gz')) && existsSync(join(dir, 'sessions.jsonl')) ? dir : null;
}

/** Reads `sessions.jsonl`. */
export function readSessions(dir: string): Map<string, SessionInfo> {
  const out = new Map<string, SessionInfo>();
  for (const line of readFileSync(join(dir, 'sessions.jsonl'), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const s = JSON.parse(line) as SessionInfo;
    out.set(s.session, s);
  }
  return out;
}

interface Live {
  readonly detector: LoopDetector;
  calls: number;
  worst: LoopAction | null;
  firstBreak: number | null;
  verdicts: number;
}

/** Scans `events.jsonl.gz` in `dir` with `new LoopDetector(options)` per session. */
export async function scanTraces(dir: string, options: LoopDetectorOptions = {}): Promise<TraceScan> {
  const info = readSessions(dir);
  const live = new Map<string, Live>();
  const byKind: Record<string, number> = {};
  let events = 0;
  let skippedLines = 0;
  let detectMillis = 0;
  const start = performance.now();
  const lines = createInterface({ input: createReadStream(join(dir, 'events.jsonl.gz')).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    let e: Record<string, unknown>;
    try {
      e = JSON.parse(line) as Record<string, unknown>;
    } catch {
      skippedLines++;
      continue;
    }
    const id = String(e.session);
    let s = live.get(id);
    if (s === undefined) {
      s = { detector: new LoopDetector(options), calls: 0, worst: null, firstBreak: null, verdicts: 0 };
      live.set(id, s);
    }
    events++;
    let v: Verdict | null;
    const t0 = performance.now();
    try {
      v = s.detector.check({ tool: e.tool as string, args: e.args, result: e.result, error: e.error, text: e.text as string | undefined, step: e.step as number | undefined });
    } catch {
      skippedLines++;
      continue;
    } finally {
      detectMillis += performance.now() - t0;
    }
    const index = s.calls++;
    if (v === null) continue;
    s.verdicts++;
    byKind[v.kind] = (byKind[v.kind] ?? 0) + 1;
    if (s.worst === null || RANK[v.action] > RANK[s.worst]) s.worst = v.action;
    if (v.action === 'break' && s.firstBreak === null) s.firstBreak = index;
  }
  const sessions: ScannedSession[] = [];
  const byExitStatus: Record<string, ScanGroup> = {};
  for (const [id, s] of live) {
    const meta = info.get(id);
    const exitStatus = meta?.exit_status ?? 'unlisted';
    sessions.push({ session: id, agent: meta?.agent ?? 'unknown', exitStatus, calls: s.calls, worst: s.worst, firstBreak: s.firstBreak, verdicts: s.verdicts });
    const g = (byExitStatus[exitStatus] ??= { sessions: 0, warned: 0, broken: 0 });
    g.sessions++;
    if (s.worst !== null) g.warned++;
    if (s.worst === 'break') g.broken++;
  }
  for (const s of live.values()) s.detector.dispose();
  return { events, skippedLines, sessions, byExitStatus, byKind, millis: performance.now() - start, detectMillis };
}

/** The scan as a small text table. */
export function formatScan(scan: TraceScan): string {
  const pct = (n: number, d: number) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);
  const rows = Object.entries(scan.byExitStatus).sort((a, b) => b[1].sessions - a[1].sessions);
  const lines = [
    `${scan.events} calls in ${scan.sessions.length} sessions, ${(scan.millis / 1000).toFixed(1)} s with reading; detection ${((scan.detectMillis * 1000) / Math.max(1, scan.events)).toFixed(1)} µs/call`,
    'exit status   sessions   warn or above       break',
    ...rows.map(([k, g]) => `${k.padEnd(13)} ${String(g.sessions).padStart(8)}   ${`${g.warned} (${pct(g.warned, g.sessions)})`.padEnd(17)}   ${g.broken} (${pct(g.broken, g.sessions)})`),
    `verdicts by kind: ${Object.entries(scan.byKind).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')}`,
  ];
  if (scan.skippedLines > 0) lines.push(`skipped lines: ${scan.skippedLines}`);
  return lines.join('\n');
}
