/**
 * One RSS measurement, run in a fresh child process by session-rss.ts:
 * `node session-rss-worker.js core|all SESSIONS` checks SESSIONS sessions x 100 calls of the medium
 * fixture's args (491 B of JSON, each call its own objects, with a 200 B result) through a LoopEngine and
 * prints the growth of the process's resident memory (after garbage collection) as JSON.
 */
import { LoopEngine } from '../src/engine/loop-engine.js';
import { events } from './fixtures.js';
import { FLEET_DETECTORS } from './fleet-bench.js';

const [which = 'core', n = '5000'] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
const sessions = Number(n);
const stream = events('medium', 200, true);
const texts = stream.map((e) => JSON.stringify(e.args));
const engine = new LoopEngine({ ...FLEET_DETECTORS[which as 'core' | 'all'], maxSessions: Math.max(100_000, sessions) });
const rss = (): number => {
  gc?.();
  gc?.();
  return process.memoryUsage().rss;
};
// the module, the JIT and the engine's buffers first, on sessions that are ended again
for (let i = 0; i < 4000; i++) engine.check(`warm-${i % 40}`, { tool: 'str_replace_editor', args: JSON.parse(texts[i % 200] as string), result: stream[i % 200]?.result });
for (let i = 0; i < 40; i++) engine.end(`warm-${i}`);
const before = rss();
for (let c = 0; c < 100; c++) {
  const batch = [];
  for (let s = 0; s < sessions; s++) {
    const k = (c + 13 * s) % 200;
    batch.push({ session: `session-${s}`, tool: 'str_replace_editor', args: JSON.parse(texts[k] as string) as unknown, result: stream[k]?.result });
    if (batch.length === 1000) engine.checkBatch(batch.splice(0));
  }
  if (batch.length > 0) engine.checkBatch(batch);
}
console.log(JSON.stringify({ rssGrowth: rss() - before, live: engine.size }));
