/**
 * One RSS measurement, run in a fresh child process by session-rss.ts:
 * `node session-rss-worker.js core|all SESSIONS [fixture|real]` checks SESSIONS sessions x 100 calls
 * through a LoopEngine and prints the growth of the process's resident memory (after garbage collection)
 * as JSON. `fixture`: the medium fixture's args (491 B of JSON, each call its own objects, with a 200 B
 * result); `real`: 100 consecutive calls of the traces (../shared/data/traces) per session, loaded
 * before the first measurement (see rss-real-stream.ts).
 */
import { LoopEngine } from '../src/engine/loop-engine.js';
import { FLEET_DETECTORS } from './fleet-bench.js';
import { feed, warmUp } from './rss-stream.js';
import { feedReal, loadRealCalls } from './rss-real-stream.js';

const [which = 'core', n = '5000', stream = 'fixture'] = process.argv.slice(2);
const real = stream === 'real' ? await loadRealCalls() : null;
const gc = (globalThis as { gc?: () => void }).gc;
const sessions = Number(n);
const engine = new LoopEngine({ ...FLEET_DETECTORS[which as 'core' | 'all'], maxSessions: Math.max(100_000, sessions) });
const rss = (): number => {
  gc?.();
  gc?.();
  return process.memoryUsage().rss;
};
warmUp(engine);
const before = rss();
if (real === null) feed(engine, sessions, 100);
else feedReal(engine, real, sessions, 100);
console.log(JSON.stringify({ rssGrowth: rss() - before, live: engine.size }));
