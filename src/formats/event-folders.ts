/**
 * OpenHands keeps a conversation as a folder `sessions/<id>/` holding `events/<N>.json`, one event per file,
 * beside files of its own: `metadata.json`, `init.json`, ..., and `event_cache/` pages repeating the events
 * 25 at a time; OpenHands 1.x (its SDK) as `conversations/<id>/events/event-<NNNNN>-<event id>.json` beside
 * `base_state.json`. A folder scan reads such an `events/` folder as one input (its files in numeric order, not
 * code-point order: 10.json after 9.json), named by the conversation, and leaves the companions out.
 */
import type { Dirent } from 'node:fs';

/** The name of an OpenHands events folder. */
export const EVENTS_FOLDER = 'events';

/** An event file: `<N>.json`, or the OpenHands SDK's `event-<NNNNN>-<event id>.json`, optionally gzipped. */
export const EVENT_FILE = /^(?:(\d{1,15})|event-(\d{5,15})-[0-9a-f-]{8,})\.json(\.gz)?$/i;

/** What OpenHands writes beside an events folder that is no trace (or repeats it): never read there. */
export const EVENT_COMPANIONS: ReadonlySet<string> = new Set(['event_cache', 'metadata.json', 'init.json', 'exp_config.json', 'llm_registry.json', 'conversation_stats.json', 'agent_state.json', 'base_state.json']);

/**
 * The names of the event files among `entries` (a folder's entries) in numeric order, when every entry
 * named like a trace file is one and there is at least one; null otherwise (the folder is walked as usual).
 */
export function eventFileNames(entries: readonly Dirent[], isTraceFile: (name: string) => boolean): string[] | null {
  const names: string[] = [];
  for (const e of entries) {
    if (e.isDirectory() || !isTraceFile(e.name)) continue;
    if (!e.isFile() || !EVENT_FILE.test(e.name)) return null;
    names.push(e.name);
  }
  if (names.length === 0) return null;
  const n = (name: string): number => {
    const m = EVENT_FILE.exec(name)!;
    return Number(m[1] ?? m[2]);
  };
  return names.sort((a, b) => n(a) - n(b) || (a < b ? -1 : 1));
}
