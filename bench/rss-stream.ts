/**
 * The stream the memory measurements feed (session-rss-worker.ts, session-heap.ts): sessions x calls of
 * the medium fixture's args (491 B of JSON, each call its own objects, parsed afresh) with a 200 B result,
 * through a LoopEngine, after warming it on sessions that are ended again.
 */
import type { LoopEngine } from '../src/engine/loop-engine.js';
import { events } from './fixtures.js';

const stream = events('medium', 200, true);
const texts = stream.map((e) => JSON.stringify(e.args));

/** The module, the JIT and the engine's buffers first, on 40 sessions that are ended again. */
export function warmUp(engine: LoopEngine): void {
  for (let i = 0; i < 4000; i++) engine.check(`warm-${i % 40}`, { tool: 'str_replace_editor', args: JSON.parse(texts[i % 200] as string) as unknown, result: stream[i % 200]?.result });
  for (let i = 0; i < 40; i++) engine.end(`warm-${i}`);
}

/** `calls` calls to each of `sessions` sessions, round by round, in batches of 1,000. */
export function feed(engine: LoopEngine, sessions: number, calls: number): void {
  for (let c = 0; c < calls; c++) {
    const batch = [];
    for (let s = 0; s < sessions; s++) {
      const k = (c + 13 * s) % 200;
      batch.push({ session: `session-${s}`, tool: 'str_replace_editor', args: JSON.parse(texts[k] as string) as unknown, result: stream[k]?.result });
      if (batch.length === 1000) engine.checkBatch(batch.splice(0));
    }
    if (batch.length > 0) engine.checkBatch(batch);
  }
}
