/**
 * Cost harness (not part of the suite): CPU nanoseconds per `check()` of one session on the suite's stream
 * with results (the `core-results` and `all-objects` scopes), beside the md5 baseline on the same calls.
 *
 *   node dist/bench/call-cost.js core|all small|medium|large [chunks = 7]
 *
 * Each chunk times a run of calls with `process.cpuUsage()` (steadier than wall time on a shared machine,
 * though it counts the collector's helper threads too); the median chunk is printed, with the fastest.
 * To compare two builds, copy this file's output into the other build's `dist/bench/` and alternate runs.
 */
import { LoopDetector } from '../src/index.js';
import { Md5Baseline } from './baselines.js';
import { type Size, events } from './fixtures.js';
import { CORE } from './index-core.js';

const [which = 'core', size = 'small', chunks = '7'] = process.argv.slice(2);
if (which !== 'core' && which !== 'all') throw new Error(`unknown detector set ${which}: core or all`);
if (size !== 'small' && size !== 'medium' && size !== 'large') throw new Error(`unknown size ${size}: small, medium or large`);
const stream = events(size as Size, 20_000, true);
const calls = size === 'large' ? 20_000 : size === 'medium' ? 40_000 : 100_000;
let at = 0;

/** CPU nanoseconds per call over `calls` calls of the stream, from where the last run stopped. */
function run(checker: { check(e: (typeof stream)[number]): unknown }): number {
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    checker.check(stream[at] as (typeof stream)[number]);
    at = at + 1 === stream.length ? 0 : at + 1;
  }
  const used = process.cpuUsage(before);
  return ((used.user + used.system) * 1000) / calls;
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;

const detector = new LoopDetector(which === 'core' ? { detectors: CORE } : {});
const md5 = new Md5Baseline();
run(detector);
run(detector);
if (which === 'core') run(md5);
const ours: number[] = [];
const theirs: number[] = [];
for (let c = 0; c < Number(chunks); c++) {
  ours.push(run(detector));
  if (which === 'core') theirs.push(run(md5));
}
detector.dispose();
const ns = median(ours);
const base = theirs.length === 0 ? '' : `, md5 ${median(theirs).toFixed(0)} ns (${(median(theirs) / ns).toFixed(1)}x)`;
console.log(`${which} ${size}: ${ns.toFixed(0)} ns per call (fastest ${Math.min(...ours).toFixed(0)})${base}`);
