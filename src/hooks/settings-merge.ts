/**
 * Adding loopwatch's hook entries to an agent's parsed settings, and taking them out, without touching
 * anything else: other keys, other events, other hooks of the same event (in their order) stay as they
 * are. Installing twice changes nothing; installing with another command line replaces loopwatch's
 * entries; uninstalling removes loopwatch's handlers (groups and events they leave empty go with them).
 */
import type { HookEvent } from './install-targets.js';
import { isLoopwatchCommand } from './install-targets.js';

/** What happened to one event. */
export interface EventChange {
  readonly event: string;
  readonly change: 'added' | 'updated' | 'removed' | 'unchanged' | 'absent';
}

/** Settings that cannot be merged into: a message naming the place and what was found there. */
export class SettingsShapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingsShapeError';
  }
}

type Group = Record<string, unknown> & { hooks?: unknown };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function kind(v: unknown): string {
  return Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** The `hooks` object of the settings (made if `create`), checked group by group. */
function hooksOf(settings: Record<string, unknown>, create: boolean): Record<string, unknown> | null {
  if (settings.hooks === undefined) {
    if (!create) return null;
    settings.hooks = {};
  }
  if (!isObject(settings.hooks)) throw new SettingsShapeError(`"hooks" is ${kind(settings.hooks)}, not an object`);
  return settings.hooks;
}

function groupsOf(hooks: Record<string, unknown>, event: string): Group[] | null {
  const groups = hooks[event];
  if (groups === undefined) return null;
  if (!Array.isArray(groups)) throw new SettingsShapeError(`"hooks.${event}" is ${kind(groups)}, not an array`);
  groups.forEach((g, i) => {
    if (!isObject(g)) throw new SettingsShapeError(`"hooks.${event}[${i}]" is ${kind(g)}, not an object`);
    if (g.hooks !== undefined && !Array.isArray(g.hooks)) throw new SettingsShapeError(`"hooks.${event}[${i}].hooks" is ${kind(g.hooks)}, not an array`);
  });
  return groups as Group[];
}

/** Removes loopwatch's handlers from the groups; drops groups left without handlers. Returns how many. */
function strip(groups: Group[]): number {
  let removed = 0;
  for (let i = groups.length - 1; i >= 0; i--) {
    const g = groups[i] as Group;
    if (!Array.isArray(g.hooks)) continue;
    const kept = g.hooks.filter((h: unknown) => !(isObject(h) && isLoopwatchCommand(h.command)));
    removed += g.hooks.length - kept.length;
    if (kept.length === 0 && g.hooks.length > 0) groups.splice(i, 1);
    else g.hooks = kept;
  }
  return removed;
}

/** Whether the groups hold exactly one loopwatch handler, equal to `handler`, in a group with `matcher`. */
function installedAs(groups: readonly Group[], matcher: string | undefined, handler: Record<string, unknown>): boolean {
  const own = groups.flatMap((g) => (Array.isArray(g.hooks) ? g.hooks.filter((h: unknown) => isObject(h) && isLoopwatchCommand(h.command)).map((h) => ({ g, h })) : []));
  const only = own.length === 1 ? own[0] : undefined;
  return only !== undefined && only.g.matcher === matcher && JSON.stringify(only.h) === JSON.stringify(handler);
}

/** Adds loopwatch's `handler` to each event of `events` (in place). Throws SettingsShapeError. */
export function mergeHooks(settings: Record<string, unknown>, events: readonly HookEvent[], handler: Record<string, unknown>): EventChange[] {
  const hooks = hooksOf(settings, true) as Record<string, unknown>;
  for (const { event } of events) groupsOf(hooks, event); // check every event before changing any
  return events.map(({ event, matcher }) => {
    const groups = groupsOf(hooks, event) ?? [];
    if (installedAs(groups, matcher, handler)) return { event, change: 'unchanged' };
    const had = strip(groups) > 0;
    groups.push({ ...(matcher === undefined ? {} : { matcher }), hooks: [handler] });
    hooks[event] = groups;
    return { event, change: had ? 'updated' : 'added' };
  });
}

/** Removes loopwatch's handlers from each event of `events` (in place). Throws SettingsShapeError. */
export function unmergeHooks(settings: Record<string, unknown>, events: readonly HookEvent[]): EventChange[] {
  const hooks = hooksOf(settings, false);
  if (hooks === null) return events.map(({ event }) => ({ event, change: 'absent' }));
  for (const { event } of events) groupsOf(hooks, event);
  return events.map(({ event }) => {
    const groups = groupsOf(hooks, event);
    if (groups === null || strip(groups) === 0) return { event, change: 'absent' };
    if (groups.length === 0) delete hooks[event];
    return { event, change: 'removed' };
  });
}
