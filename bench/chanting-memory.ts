/**
 * Memory harness (not part of the suite): what sessions with chanting on cost once each has had one text,
 * or none. Run in a fresh process with `--expose-gc`:
 *
 *   node --expose-gc dist/bench/chanting-memory.js wasm|reference [sessions = 5000] [text|notext]
 *
 * Prints bytes per session: RSS, JavaScript heap, array buffers, and the growth of the thread's
 * WebAssembly memory (which grows in steps, so it is coarse).
 */
import { LoopDetector } from '../src/index.js';
import type { LoopDetectorOptions } from '../src/index.js';
import { sharedCore } from '../src/wasm/wasm-core.js';

const [engine = 'wasm', count = '5000', what = 'text'] = process.argv.slice(2);
if (engine !== 'wasm' && engine !== 'reference') throw new Error(`unknown engine ${engine}: wasm or reference`);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');
const n = Number(count);
const o: LoopDetectorOptions = { engine, detectors: { exactRepeat: false, frequency: false, cycle: false, semantic: false, similarArgs: false, resultRepeat: false, deadEnd: false, stateRepeat: false, chanting: true } };
const warm = Array.from({ length: 200 }, (_, i) => new LoopDetector(o, `warm-${i}`));
for (const d of warm) d.checkText('Warming up.');
gc();
const m0 = process.memoryUsage();
const w0 = sharedCore().instance.memory.buffer.byteLength;
const sessions: LoopDetector[] = [];
for (let i = 0; i < n; i++) {
  const d = new LoopDetector(o, `session-${i}`);
  if (what === 'text') d.check({ tool: 'reply', args: {}, text: `Session ${i} is reading the file now. Then it will run the tests.` });
  sessions.push(d);
}
gc();
const m1 = process.memoryUsage();
const w1 = sharedCore().instance.memory.buffer.byteLength;
const per = (a: number, b: number): number => Math.round((b - a) / n);
console.log(`${engine}, ${n} sessions, ${what === 'text' ? 'one text each' : 'no text'}: RSS ${per(m0.rss, m1.rss)} B, heap ${per(m0.heapUsed, m1.heapUsed)} B, array buffers ${per(m0.arrayBuffers, m1.arrayBuffers)} B, WebAssembly memory ${per(w0, w1)} B per session (${sessions.length} alive)`);
