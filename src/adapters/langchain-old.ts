/**
 * LangChain's tool node before 1.2.34, as loopwatchMiddleware meets it (internal: not part of any subpath).
 *
 * From 1.2.13 to 1.2.33 the tool node gives `wrapToolCall` a runtime without `configurable`, so a call does
 * not say its thread; from 1.2.28 the hooks (beforeAgent, beforeModel) do. `ThreadsByFirstMessage` keeps,
 * for each run the hooks saw, its first message's id and its thread, so a call is put in the thread's session
 * (a thread keeps its first message; before 1.2.28 no part sees the thread, and hooks and calls alike name the
 * session after the first message). Before 1.2.13 the tool node runs the registered tool whatever tool the
 * middleware hands it (a call loopwatch blocked would run): `runsStandIns` asks it once, with a stand-in
 * under a name no tool has, which that tool node refuses (`Tool "..." not found.`) and later ones run.
 */
import { MAX_REMEMBERED_CALLS } from './shared.js';

/** What a run on LangChain before 1.2.13 is told, at its first tool call, before the tool runs. */
export const OLD_LANGCHAIN =
  'loopwatch: loopwatchMiddleware needs langchain 1.2.13 or newer: this LangChain runs a tool call loopwatch blocked, so the call was not run (npm install langchain@latest @langchain/core@latest)';

/** The name of the stand-in tool `runsStandIns` hands the tool node (no real tool has it). */
const PROBE_NAME = 'loopwatch-stand-in-probe';

/** Whether `runtime` is the one LangChain's tool node gave wrapToolCall before 1.2.34 (no `configurable` key at all). */
export function isOldToolNode(runtime: unknown): boolean {
  return typeof runtime === 'object' && runtime !== null && !('configurable' in runtime);
}

/**
 * Whether the tool node behind `handler` runs the tool a middleware hands it (1.2.13 and newer): the handler
 * is called once with a stand-in under a name no tool has; no real tool runs either way.
 */
export async function runsStandIns<R extends { toolCall: object }>(request: R, handler: (request: R) => unknown): Promise<boolean> {
  try {
    await handler({ ...request, toolCall: { ...request.toolCall, name: PROBE_NAME }, tool: { name: PROBE_NAME, description: 'loopwatch stand-in (probe)', metadata: { loopwatch: 'probe' }, invoke: async () => '' } });
    return true;
  } catch {
    return false;
  }
}

/** The threads of the runs the hooks saw, by their first message's id (the newest MAX_REMEMBERED_CALLS). */
export class ThreadsByFirstMessage {
  readonly #threads = new Map<string, string>();

  /** Notes that the run whose first message is `first` is on `thread`. */
  note(first: unknown, thread: unknown): void {
    if (typeof first !== 'string' || first.length === 0 || typeof thread !== 'string' || thread.length === 0) return;
    this.#threads.delete(first); // kept newest: a thread in use is not the one forgotten
    this.#threads.set(first, thread);
    if (this.#threads.size > MAX_REMEMBERED_CALLS) this.#threads.delete(this.#threads.keys().next().value as string);
  }

  /** The thread of the run whose first message is `first`, if the hooks saw it. */
  threadOf(first: unknown): string | undefined {
    return typeof first === 'string' ? this.#threads.get(first) : undefined;
  }
}
