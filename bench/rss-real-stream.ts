/**
 * The real-call stream of the memory measurement (session-rss-worker.js `real`): the traces' calls
 * (../shared/data/traces, as a scan reads them) kept as JSON text, and each session fed 100 consecutive
 * calls of them from its own starting point, each call parsed afresh (so the session holds no caller's
 * objects that the stream keeps), in rounds of 1,000 calls a batch as the fixture stream is.
 */
import type { LoopEngine } from '../src/engine/loop-engine.js';
import { traceEvents } from './real-calls.js';

/** The traces' calls as JSON text of `{tool, args, result, error, text}`, in file order. */
export async function loadRealCalls(): Promise<string[]> {
  const events = await traceEvents();
  if (events === null) throw new Error('the traces are absent (../shared/data/traces): no real-call stream');
  return events.map((e) => JSON.stringify({ tool: e.tool, args: e.args, result: e.result, error: e.error, text: e.text }));
}

/** `calls` calls to each of `sessions` sessions, round by round: session s reads on from call s * 997 of the traces. */
export function feedReal(engine: LoopEngine, texts: readonly string[], sessions: number, calls: number): void {
  for (let c = 0; c < calls; c++) {
    const batch = [];
    for (let s = 0; s < sessions; s++) {
      const e = JSON.parse(texts[(s * 997 + c) % texts.length] as string) as { tool: string };
      batch.push({ ...e, session: `session-${s}` });
      if (batch.length === 1000) engine.checkBatch(batch.splice(0));
    }
    if (batch.length > 0) engine.checkBatch(batch);
  }
}

/** As {@link feedReal}, each call given as its events-format record's bytes (`checkLines`, 1,000 a batch). */
export function feedRealLines(engine: LoopEngine, texts: readonly string[], sessions: number, calls: number): void {
  for (let c = 0; c < calls; c++) {
    const batch: Uint8Array[] = [];
    for (let s = 0; s < sessions; s++) {
      // the session's name first, then the call's own members, as a record of the events format
      batch.push(Buffer.from(`{"session":"session-${s}",${(texts[(s * 997 + c) % texts.length] as string).slice(1)}`));
      if (batch.length === 1000) engine.checkLines(batch.splice(0));
    }
    if (batch.length > 0) engine.checkLines(batch);
  }
}
