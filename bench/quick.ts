import { LoopDetector } from '../src/index.js';
import { events, asJsonText, argsBytes } from './fixtures.js';
const core = { exactRepeat: true, frequency: true, cycle: true, semantic: false, similarArgs: false, resultRepeat: false, deadEnd: false, stateRepeat: false, chanting: false };
for (const size of ['small', 'medium', 'large'] as const) {
  const es = events(size, 2000);
  const js = asJsonText(es);
  for (const [name, opts, evs] of [['core obj', { detectors: core }, es], ['core json', { detectors: core }, js], ['all obj', {}, es], ['all res', {}, events(size, 2000, true)], ['ref core', { engine: 'reference', detectors: core }, es]] as const) {
    const d = new LoopDetector(opts as never);
    let verdicts = 0;
    for (let r = 0; r < 3; r++) for (const e of evs) if (d.check(e)) verdicts++;
    const t = process.hrtime.bigint();
    const R = 5;
    for (let r = 0; r < R; r++) for (const e of evs) d.check(e);
    const ns = Number(process.hrtime.bigint() - t) / (R * evs.length);
    console.log(size, argsBytes(es[0]!), name.padEnd(10), ns.toFixed(0), 'ns/call', 'verdicts', verdicts);
  }
}
