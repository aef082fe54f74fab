/**
 * The Terminus agents' own logs (Terminal-Bench 1's `terminus`, Harbor's `terminus-2`): one folder per turn,
 * `episode-<N>/` below a trial's `agent-logs/` (Terminal-Bench 1) or `agent/` (Harbor), each holding the
 * prompt the model was given (`prompt.txt`, the terminal screen after the previous turn's keystrokes), its
 * reply (`response.json`, Terminal-Bench 1: `{state_analysis, explanation, commands: [{keystrokes,
 * is_blocking, timeout_sec}], is_task_complete}`; `response.txt`, Harbor) and LiteLLM's record of the request
 * (`debug.json`). They are keystrokes and screens, no format loopwatch reads as calls (a Harbor trial's
 * `agent/trajectory.json` is the same run as calls, read in their place: harbor-layout.ts). A walk used to
 * try each `response.json` and `debug.json` as a trace and skip each with an issue of its own, two lines a
 * turn (a run of 80 tasks of 30 turns: 4,800); it now says one issue for the folder holding the episodes,
 * with how many (still a skip: the run's calls are there, unread). An episode folder holding anything else a
 * walk would read is walked as usual.
 */
import type { Dirent } from 'node:fs';
import { type TraceIssue, issue } from './trace-record.js';

/** A Terminus episode folder's name. */
export const TERMINUS_EPISODE = /^episode-\d{1,9}$/;

/** The files of a Terminus episode that a walk would try as traces (named like trace files). */
export const TERMINUS_EPISODE_FILES: ReadonlySet<string> = new Set(['debug.json', 'response.json']);

/** The prompt file of a Terminus episode (not named like a trace file: looked for on its own). */
export const TERMINUS_PROMPT = 'prompt.txt';

/**
 * Whether `entries` (those a walk would use, of a folder named {@link TERMINUS_EPISODE}) are a Terminus
 * episode's only, its `debug.json` among them; `hasPrompt` says whether the folder holds its `prompt.txt`
 * (both are asked, so that another tool's `episode-N/response.json` is still read).
 */
export function isTerminusEpisode(entries: readonly Dirent[], hasPrompt: boolean): boolean {
  return hasPrompt && entries.some((e) => e.name === 'debug.json') && entries.every((e) => e.isFile() && TERMINUS_EPISODE_FILES.has(e.name));
}

/** The issue of the folder `dir` holding `episodes` Terminus episode folders, not read. */
export function terminusEpisodesIssue(dir: string, episodes: number): TraceIssue {
  const what = episodes === 1 ? '1 Terminus agent episode' : `${episodes} Terminus agent episodes`;
  return issue('unknown-format', dir, 0, `${what} (episode-N/: the model's prompt.txt, its response and LiteLLM's debug.json, keystrokes and terminal screens rather than calls), which loopwatch does not read`);
}
