/**
 * What a session holds does not grow with its calls' args: after 40 calls of 1 MB args (each a fresh
 * string, repeating every third call so that exact repeats, cycles and similar args all keep what they
 * keep), a session with every default detector holds less than GROWTH_BOUND bytes of JavaScript heap and
 * buffers more than after the same 40 calls with 1 KB args (the reference engine one call's args more: it
 * holds its newest call), on both engines, and its snapshot is under SNAPSHOT_BOUND. Similar args keeps at most `window + 1` summaries of SUMMARY_MAX_BYTES (in an arena that
 * at most doubles: 88 KB with the default window of 10); the call log keeps previews, not args. Before the
 * summaries, a session held its last 11 calls' args (~11 MB more here). 40 calls are nearly four windows
 * of 11, as many as needed to show what is kept stops growing; 100 took ~18 s of CI for nothing more. Measured in a child process with
 * `--expose-gc` (the built package in dist/), so collection can be forced before each reading, after a
 * warm-up that grows the thread's shared buffers (module memory, UTF-8 scratch) to the largest args.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SUMMARY_MAX_BYTES } from '../src/text/args-summary.js';

const DIST = fileURLToPath(new URL('../dist/src/', import.meta.url));

/** Bytes of heap and buffers a session may hold more with 1 MB args than with 1 KB args. */
const GROWTH_BOUND = 2 * 11 * SUMMARY_MAX_BYTES;
/** Bytes of a session's snapshot after the stream. */
const SNAPSHOT_BOUND = 64 * 1024;
/** Sessions a reading is shared by: the heap's noise after collection (tens of KB) is divided among them. */
const SESSIONS = 8;
const CALLS = 40;
/** Large args: under the length above which Node makes external strings, so they are counted in the heap. */
const ARG_BYTES = 1_000_000;
const SMALL_BYTES = 1000;

const SCRIPT = `
import { LoopDetector } from '${DIST}index.js';
const held = () => {
  for (let k = 0; k < 4; k++) globalThis.gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const out = {};
const fill = (engine, bytes) => {
  const sessions = [];
  for (let s = 0; s < ${SESSIONS}; s++) {
    const d = new LoopDetector({ engine });
    for (let i = 0; i < ${CALLS}; i++) {
      const content = Buffer.alloc(bytes, String.fromCharCode(97 + (i % 3))).toString('latin1');
      d.check({ tool: 'write', args: { path: 'src/f' + (i % 3) + '.ts', content }, result: 'written' });
    }
    sessions.push(d);
  }
  return sessions;
};
// a call's own args live until the next call: one more session's worth is checked after the reading
const run = (engine, bytes) => {
  const base = held();
  const sessions = fill(engine, bytes);
  fill(engine, 10).forEach((d) => d.dispose());
  const perSession = (held() - base) / ${SESSIONS};
  const snapshot = engine === 'wasm' ? sessions[0].snapshot().length : 0;
  for (const d of sessions) d.dispose();
  return { perSession, snapshot };
};
for (const engine of ['wasm', 'reference']) {
  // the thread's shared buffers (the module's memory, the UTF-8 scratch) grow once to the largest args
  const warm = new LoopDetector({ engine });
  for (let i = 0; i < 12; i++) warm.check({ tool: 'write', args: { path: 'w' + (i % 3), content: Buffer.alloc(${ARG_BYTES}, 'w').toString('latin1') + (i % 3) }, result: 'ok' });
  warm.dispose();
  // a first fill makes what the first sessions of a thread make once (slots, rings, arenas): not counted
  run(engine, ${SMALL_BYTES});
  const small = run(engine, ${SMALL_BYTES});
  const large = run(engine, ${ARG_BYTES});
  out[engine] = { small: small.perSession, large: large.perSession, snapshot: large.snapshot };
}
console.log(JSON.stringify(out));
`;

describe('a session holding large args', () => {
  it(`should hold under ${GROWTH_BOUND} bytes more after ${CALLS} calls of 1 MB args than of 1 KB args, on both engines, and snapshot under ${SNAPSHOT_BOUND}`, () => {
    const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', SCRIPT], { encoding: 'utf8', timeout: 240_000 });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as Record<'wasm' | 'reference', { small: number; large: number; snapshot: number }>;
    expect(out.wasm.large - out.wasm.small).toBeLessThan(GROWTH_BOUND);
    // the reference engine also holds its newest call (lastCall(), for custom detectors): one call's args
    expect(out.reference.large - out.reference.small).toBeLessThan(GROWTH_BOUND + 1.1 * ARG_BYTES);
    expect(out.wasm.snapshot).toBeLessThan(SNAPSHOT_BOUND);
  }, 240_000);
});
