/**
 * Cost harness (not part of the suite): two builds side by side in one process, chunks of `check()` calls
 * of each in turn (process.cpuUsage per chunk), so that the machine's load moves both alike.
 *
 *   node dist/bench/ab-cost.js DIST_A DIST_B core|all small|medium|large [pairs = 30] [check|live]
 *
 * DIST_A and DIST_B are `dist` folders (e.g. the base commit built with `--outDir /tmp/base-dist`, and
 * `dist`). Prints each build's median ns per call and the median of B/A over the pairs. Which build is
 * loaded second matters by a few per cent here, either way: run it again with the two swapped and take
 * the geometric mean of B/A and 1 / (the swapped run's B/A). `live` times the two-phase path instead:
 * `propose()` of the call without its outcome, then `record()` of the call with it.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LoopDetectorOptions, ToolEvent } from '../src/index.js';
import type { Size } from './fixtures.js';

const [distA, distB, which = 'core', size = 'small', pairs = '30', way = 'check'] = process.argv.slice(2);
if (distA === undefined || distB === undefined) throw new Error('usage: ab-cost.js DIST_A DIST_B core|all small|medium|large [pairs]');
if (which !== 'core' && which !== 'all') throw new Error(`unknown detector set ${which}: core or all`);
if (size !== 'small' && size !== 'medium' && size !== 'large') throw new Error(`unknown size ${size}: small, medium or large`);
if (way !== 'check' && way !== 'live') throw new Error(`unknown way ${way}: check or live`);
const calls = size === 'large' ? 1000 : size === 'medium' ? 2000 : 5000;

/** A function running the next `calls` calls of the stream through a session of the build in `dist`. */
async function chunkOf(dist: string): Promise<() => number> {
  const at = (file: string): string => pathToFileURL(resolve(dist, file)).href;
  const { LoopDetector } = (await import(at('src/index.js'))) as typeof import('../src/index.js');
  const { CORE } = (await import(at('bench/index-core.js'))) as typeof import('./index-core.js');
  const { events } = (await import(at('bench/fixtures.js'))) as typeof import('./fixtures.js');
  const stream: ToolEvent[] = events(size as Size, 20_000, true);
  const options: LoopDetectorOptions = which === 'core' ? { detectors: CORE } : {};
  const detector = new LoopDetector(options);
  let k = 0;
  return () => {
    const before = process.cpuUsage();
    if (way === 'live') {
      for (let i = 0; i < calls; i++) {
        const e = stream[k] as ToolEvent;
        detector.propose({ tool: e.tool, args: e.args });
        detector.record(e);
        k = k + 1 === stream.length ? 0 : k + 1;
      }
    } else {
      for (let i = 0; i < calls; i++) {
        detector.check(stream[k] as ToolEvent);
        k = k + 1 === stream.length ? 0 : k + 1;
      }
    }
    const used = process.cpuUsage(before);
    return ((used.user + used.system) * 1000) / calls;
  };
}

const median = (xs: readonly number[]): number => [...xs].sort((x, y) => x - y)[xs.length >> 1] as number;

const a = await chunkOf(distA);
const b = await chunkOf(distB);
for (let w = 0; w < 10; w++) {
  a();
  b();
}
const as: number[] = [];
const bs: number[] = [];
const ratios: number[] = [];
for (let p = 0; p < Number(pairs); p++) {
  // each pair in turn starts with A or with B
  let x: number;
  let y: number;
  if (p % 2 === 0) {
    x = a();
    y = b();
  } else {
    y = b();
    x = a();
  }
  as.push(x);
  bs.push(y);
  ratios.push(y / x);
}
console.log(`${which} ${size}${way === 'live' ? ' (propose + record)' : ''}: A ${median(as).toFixed(0)} ns, B ${median(bs).toFixed(0)} ns per call, B/A ${median(ratios).toFixed(3)}`);
