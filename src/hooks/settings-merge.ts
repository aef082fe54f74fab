/**
 * Adding loopwatch's hook entries to an agent's settings file, and taking them out, without touching
 * anything else: other keys, other events, other hooks of the same event (in their order) stay as they
 * are, and so does the file's formatting (the text is edited in place, json-text.ts). Installing twice
 * changes nothing; installing with another command line replaces loopwatch's entries; uninstalling removes
 * loopwatch's handlers, and what they leave empty (a group, an event, the `hooks` object): a file
 * installed into and then uninstalled from is the text it was.
 */
import type { HookEvent } from './install-targets.js';
import { isLoopwatchCommand } from './install-targets.js';
import { type JsonEntry, type JsonMember, type JsonNode, appendEntry, jsonTree, memberOf, removeEntry } from './json-text.js';
import { type HookGroup, isJsonObject, loopwatchHandlers } from './settings-hooks.js';

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

function kind(v: unknown): string {
  return Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** The `hooks` object of the settings, or null when there is none. */
function hooksOf(settings: Record<string, unknown>): Record<string, unknown> | null {
  if (settings.hooks === undefined) return null;
  if (!isJsonObject(settings.hooks)) throw new SettingsShapeError(`"hooks" is ${kind(settings.hooks)}, not an object`);
  return settings.hooks;
}

function groupsOf(hooks: Record<string, unknown>, event: string): HookGroup[] | null {
  const groups = hooks[event];
  if (groups === undefined) return null;
  if (!Array.isArray(groups)) throw new SettingsShapeError(`"hooks.${event}" is ${kind(groups)}, not an array`);
  groups.forEach((g, i) => {
    if (!isJsonObject(g)) throw new SettingsShapeError(`"hooks.${event}[${i}]" is ${kind(g)}, not an object`);
    if (g.hooks !== undefined && !Array.isArray(g.hooks)) throw new SettingsShapeError(`"hooks.${event}[${i}].hooks" is ${kind(g.hooks)}, not an array`);
  });
  return groups as HookGroup[];
}

/** Whether the groups hold exactly one loopwatch handler, equal to `handler`, in a group with `matcher`. */
function installedAs(groups: readonly HookGroup[], matcher: string | undefined, handler: Record<string, unknown>): boolean {
  const own = loopwatchHandlers(groups);
  const only = own.length === 1 ? own[0] : undefined;
  return only !== undefined && only.group.matcher === matcher && JSON.stringify(only.handler) === JSON.stringify(handler);
}

/** The event array `event` of the text's `hooks` object, as spans (undefined when absent). */
function eventArray(text: string, event: string): { hooks: JsonNode; groups: JsonNode | undefined } {
  const hooks = memberOf(jsonTree(text), 'hooks')?.value as JsonNode;
  return { hooks, groups: memberOf(hooks, event)?.value };
}

/**
 * Takes loopwatch's handlers out of the event's groups in the text, one edit at a time: a group left with
 * none of the user's handlers goes with it (a group that had no handlers stays). Returns the new text and
 * how many handlers were taken out.
 */
function strip(text: string, event: string): { text: string; removed: number } {
  let removed = 0;
  for (;;) {
    const { groups } = eventArray(text, event);
    if (groups === undefined || groups.kind !== 'array') return { text, removed };
    let edited: string | null = null;
    for (let gi = 0; gi < groups.entries.length && edited === null; gi++) {
      const handlers = memberOf((groups.entries[gi] as JsonEntry).value, 'hooks')?.value;
      if (handlers === undefined || handlers.kind !== 'array') continue;
      const at = handlers.entries.findIndex((h) => isLoopwatchCommand(commandOf(text, h.value)));
      if (at >= 0) edited = handlers.entries.length === 1 ? removeEntry(text, groups, gi) : removeEntry(text, handlers, at);
    }
    if (edited === null) return { text, removed };
    text = edited;
    removed++;
  }
}

/** The `command` string of a handler's span, or undefined. */
function commandOf(text: string, handler: JsonNode): unknown {
  const c = memberOf(handler, 'command')?.value;
  return c === undefined || c.kind !== 'value' ? undefined : JSON.parse(text.slice(c.start, c.end));
}

/** What a merge changed: the new text, and what happened to each event. */
export interface MergeResult {
  readonly text: string;
  readonly changes: readonly EventChange[];
}

/** loopwatch's handler for event `e`: `handler`, with the event's own timeout and `async` when it has them. */
function handlerFor(handler: Record<string, unknown>, e: HookEvent): Record<string, unknown> {
  return { ...handler, ...(e.timeout === undefined ? {} : { timeout: e.timeout }), ...(e.async === true ? { async: true } : {}) };
}

/** loopwatch's group for event `e`: its matcher, if any, and its handler. */
function groupFor(handler: Record<string, unknown>, e: HookEvent): Record<string, unknown> {
  return { ...(e.matcher === undefined ? {} : { matcher: e.matcher }), hooks: [handlerFor(handler, e)] };
}

/**
 * The `hooks` object install adds to settings that have none: each event of `events` with loopwatch's group
 * (also what install prints for a file it does not edit, to be added by hand).
 */
export function hooksValue(events: readonly HookEvent[], handler: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(events.map((e) => [e.event, [groupFor(handler, e)]]));
}

/**
 * Adds loopwatch's `handler` to each event of `events`, editing `text` (whose parse is `settings`) in
 * place: `unit` is the file's indentation. Throws SettingsShapeError (nothing changed).
 */
export function mergeHooks(text: string, settings: Record<string, unknown>, events: readonly HookEvent[], handler: Record<string, unknown>, unit: string): MergeResult {
  const hooks = hooksOf(settings);
  for (const { event } of events) if (hooks !== null) groupsOf(hooks, event); // check every event before changing any
  if (hooks === null) {
    // no hooks yet: one new member holding every event
    return { text: appendEntry(text, jsonTree(text), hooksValue(events, handler), unit, 'hooks'), changes: events.map(({ event }) => ({ event, change: 'added' as const })) };
  }
  const changes = events.map((e): EventChange => {
    const { event, matcher } = e;
    if (installedAs(groupsOf(hooks, event) ?? [], matcher, handlerFor(handler, e))) return { event, change: 'unchanged' };
    const stripped = strip(text, event);
    text = stripped.text;
    const group = groupFor(handler, e);
    const { hooks: hooksNode, groups } = eventArray(text, event);
    text = groups === undefined ? appendEntry(text, hooksNode, [group], unit, event) : appendEntry(text, groups, group, unit);
    return { event, change: stripped.removed > 0 ? 'updated' : 'added' };
  });
  return { text, changes };
}

/**
 * Removes loopwatch's handlers from each event of `events`, editing `text` (whose parse is `settings`) in
 * place; an event left without groups goes, and so does a `hooks` object left empty, unless the settings
 * as they were before install (`before`, from install's backup) had them. Throws SettingsShapeError
 * (nothing changed).
 */
export function unmergeHooks(text: string, settings: Record<string, unknown>, events: readonly HookEvent[], before?: Record<string, unknown>): MergeResult {
  const hooks = hooksOf(settings);
  if (hooks === null) return { text, changes: events.map(({ event }) => ({ event, change: 'absent' })) };
  for (const { event } of events) groupsOf(hooks, event);
  const had = before === undefined ? null : isJsonObject(before.hooks) ? before.hooks : undefined;
  const changes = events.map(({ event }): EventChange => {
    const stripped = strip(text, event);
    if (stripped.removed === 0) return { event, change: 'absent' };
    text = stripped.text;
    const { hooks: hooksNode, groups } = eventArray(text, event);
    const keep = had !== null && had !== undefined && Object.hasOwn(had, event);
    if (!keep && groups !== undefined && groups.kind === 'array' && groups.entries.length === 0 && hooksNode.kind === 'object') {
      text = removeEntry(text, hooksNode, hooksNode.entries.lastIndexOf(memberOf(hooksNode, event) as JsonMember));
    }
    return { event, change: 'removed' };
  });
  const root = jsonTree(text);
  const left = memberOf(root, 'hooks');
  if (had === null || had === undefined) {
    if (changes.some((c) => c.change === 'removed') && left !== undefined && left.value.kind === 'object' && left.value.entries.length === 0 && root.kind === 'object') {
      text = removeEntry(text, root, root.entries.lastIndexOf(left));
    }
  }
  return { text, changes };
}
