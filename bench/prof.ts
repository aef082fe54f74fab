/** Profiling harness (not part of the suite): node --cpu-prof dist/bench/prof.js SIZE core|all obj|json res|nores */
import { LoopDetector } from '../src/index.js';
import { CORE } from './index-core.js';
import { asJsonText, events } from './fixtures.js';
const [size = 'small', which = 'core', form = 'obj', res = 'nores'] = process.argv.slice(2);
let es = events(size as 'small', 4000, res === 'res');
if (form === 'json') es = asJsonText(es);
const d = new LoopDetector(which === 'core' ? { detectors: CORE } : {});
const t = performance.now();
const rounds = size === 'large' ? 20 : 200;
for (let r = 0; r < rounds; r++) for (const e of es) d.check(e);
console.log(((performance.now() - t) * 1e6 / (rounds * es.length)).toFixed(0), 'ns/call');
