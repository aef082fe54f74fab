/**
 * Tool names by number, shared by every session of the thread: a call log keeps a call's tool as a small
 * number beside its signature instead of a reference to the caller's string (events parsed from JSON
 * bring a copy of the name with every call). Bounded: past {@link MAX_TOOL_NAMES} distinct names, a
 * name gets no number ({@link NO_TOOL_ID}) and the log keeps the string itself.
 */

/**
 * Distinct names numbered at most (then names are kept by each log as strings): numbers are 1 to 32,767,
 * 15 bits of a call log's tool word (whose low half's top bit is the log's TEXT_KEPT, its high half the
 * call facts' bits: state/call-log.ts).
 */
export const MAX_TOOL_NAMES = (1 << 15) - 1;

/** The number of a name the table holds no number for. */
export const NO_TOOL_ID = 0;

const ids = new Map<string, number>();
/** Names by number; number 0 is NO_TOOL_ID. */
const names: string[] = [''];
let lastName = '';
let lastId = NO_TOOL_ID;

/** The number of a tool name, numbering it if it is new and there is room; NO_TOOL_ID when there is none. */
export function toolId(name: string): number {
  if (name === lastName && lastId !== NO_TOOL_ID) return lastId;
  let id = ids.get(name);
  if (id === undefined) {
    if (names.length > MAX_TOOL_NAMES) return NO_TOOL_ID;
    id = names.length;
    names.push(name);
    ids.set(name, id);
  }
  lastName = name;
  lastId = id;
  return id;
}

/** The name of a number toolId() gave. */
export function toolName(id: number): string {
  return names[id] as string;
}
