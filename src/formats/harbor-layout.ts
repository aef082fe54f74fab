/**
 * Harbor (Terminal-Bench 2's harness) writes a job as a folder: `config.json`, `result.json` and `job.log`
 * beside one folder per trial; a trial holds `config.json`, `result.json`, `trial.log`, `agent/` (the
 * agent's logs and its ATIF trajectory, `agent/trajectory.json`, with `trajectory.cont-N.json` and
 * subagents' `trajectory.*.json` beside it), `verifier/` and `artifacts/` (multi-step trials keep
 * `steps/<name>/agent/` instead). Of a trial, a folder scan reads only the trajectories: the agent's own
 * logs there (a Claude Code or Codex session the trajectory was made from) would count its calls twice, and
 * the rest holds settings, scores and test output, no calls. A trial without a trajectory has its agent
 * folders walked as usual. What is passed over is said in one note (no skip: the scan stays clean).
 */
import type { Dirent } from 'node:fs';
import { folderEntries, folderEntriesCap } from './folder-entries.js';
import { join } from 'node:path';

/** An ATIF trajectory a Harbor agent writes in its `agent/` folder. */
export const HARBOR_TRAJECTORY = /^trajectory(\.[\w.-]+)?\.json$/;

/** The files of a job folder that are no trace: the job's settings and results. */
export const HARBOR_JOB_FILES: ReadonlySet<string> = new Set(['config.json', 'result.json']);
/** Names a Harbor folder is known by that are not named like trace files (a walk keeps them to look at). */
export const HARBOR_MARKERS: ReadonlySet<string> = new Set(['trial.log', 'job.log']);

/** What a folder is in Harbor's layout. */
export type HarborFolder =
  | { readonly kind: 'job' }
  /** `trajectories`: paths below the trial (`agent/trajectory.json`, ...); `agentFolders`: its agent folders, walked when it has none. */
  | { readonly kind: 'trial'; readonly trajectories: readonly string[]; readonly agentFolders: readonly string[] };

const has = (entries: readonly Dirent[], name: string, folder: boolean): boolean => entries.some((e) => e.name === name && (folder ? e.isDirectory() : e.isFile()));

/** Whether `entries` (a folder's) are a Harbor trial's: `config.json`, an `agent/` or `steps/` folder, and `result.json` or `trial.log`. */
function isTrial(entries: readonly Dirent[]): boolean {
  return has(entries, 'config.json', false) && (has(entries, 'agent', true) || has(entries, 'steps', true)) && (has(entries, 'result.json', false) || has(entries, 'trial.log', false));
}

/** A name Harbor's layout looks at: a folder, a trajectory, a job's or trial's marker file. */
const harborName = (e: Dirent): boolean => e.isDirectory() || HARBOR_JOB_FILES.has(e.name) || HARBOR_MARKERS.has(e.name) || HARBOR_TRAJECTORY.test(e.name);

/** The entries of `dir` Harbor's layout looks at (the first of them by name, folder-entries.ts), or none when it cannot be read (walking it reports why). */
async function entriesOf(dir: string): Promise<Dirent[]> {
  try {
    return (await folderEntries(dir, harborName, folderEntriesCap())).entries;
  } catch {
    return [];
  }
}

/** The trajectories in the agent folder `agent` (a path below the trial `dir`), sorted. */
async function trajectoriesIn(dir: string, agent: string): Promise<string[]> {
  const names = (await entriesOf(join(dir, agent))).filter((e) => e.isFile() && HARBOR_TRAJECTORY.test(e.name)).map((e) => e.name);
  // trajectory.json first, then its continuations and subagents' in code point order
  return names.sort((a, b) => (a === 'trajectory.json' ? -1 : b === 'trajectory.json' ? 1 : a < b ? -1 : a > b ? 1 : 0)).map((n) => `${agent}/${n}`);
}

/**
 * What the folder `dir` (with `entries`, sorted) is in Harbor's layout: a job (settings and results beside
 * at least one trial folder), a trial (with its trajectories and agent folders), or null.
 */
export async function harborFolder(dir: string, entries: readonly Dirent[]): Promise<HarborFolder | null> {
  if (!has(entries, 'config.json', false)) return null;
  if (isTrial(entries)) {
    const agentFolders: string[] = has(entries, 'agent', true) ? ['agent'] : [];
    if (has(entries, 'steps', true)) {
      for (const s of (await entriesOf(join(dir, 'steps'))).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
        if (has(await entriesOf(join(dir, 'steps', s)), 'agent', true)) agentFolders.push(`steps/${s}/agent`);
      }
    }
    const trajectories: string[] = [];
    for (const a of agentFolders) trajectories.push(...(await trajectoriesIn(dir, a)));
    return { kind: 'trial', trajectories, agentFolders };
  }
  if (!has(entries, 'result.json', false) && !has(entries, 'job.log', false)) return null;
  for (const e of entries) if (e.isDirectory() && isTrial(await entriesOf(join(dir, e.name)))) return { kind: 'job' };
  return null;
}

/** The note of a Harbor job folder (or a trial scanned on its own): what is read of each trial, what not. */
export function harborNote(kind: 'job' | 'trial'): string {
  const what = kind === 'job' ? 'a Harbor job: its config.json and result.json, and of each trial' : 'a Harbor trial: of it';
  return `${what} config.json, result.json, verifier/, artifacts/ and the agent's own logs (which agent/trajectory.json repeats) passed over; only the ATIF trajectories read (the agent's folder walked when there is none)`;
}
