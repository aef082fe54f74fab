import { LoopDetector } from '../src/index.js';
import { events, asJsonText } from './fixtures.js';
const which = (process.argv[2] ?? 'small') as 'small';
let es = events(which, 2000);
if (process.argv[4] === 'json') es = asJsonText(es);
const d = new LoopDetector(process.argv[3] === 'core' ? { detectors: { semantic: false, similarArgs: false, resultRepeat: false, deadEnd: false, stateRepeat: false, chanting: false } } : {});
for (let r = 0; r < 300; r++) for (const e of es) d.check(e);
