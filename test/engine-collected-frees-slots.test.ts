/**
 * A LoopEngine's sessions register no finaliser of their own: the engine frees their WebAssembly slots
 * when it is closed, and when it is garbage-collected without being closed. Run in a child process with
 * `--expose-gc` (the built package in dist/), so collection can be forced.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../dist/src/', import.meta.url));

const SCRIPT = `
import { LoopEngine } from '${DIST}engine/loop-engine.js';
import { sharedCore } from '${DIST}wasm/wasm-core.js';
import * as A from '${DIST}wasm/generated/abi.js';
const live = () => {
  const u32 = sharedCore().instance.views().u32;
  let n = 0;
  for (let id = 0; id < A.MAX_CONFIGS; id++) n += u32[(A.CONFIGS + id * A.CONFIG_SIZE + A.C_LIVE) >>> 2];
  return n;
};
const fill = (close) => {
  const e = new LoopEngine();
  for (let i = 0; i < 500; i++) e.check('s' + i, { tool: 'read', args: { i } });
  const n = live();
  if (close) e.close();
  return n;
};
const out = { before: live(), closed: fill(true), afterClose: live(), dropped: fill(false) };
for (let k = 0; k < 20 && live() !== 0; k++) {
  globalThis.gc();
  await new Promise((r) => setTimeout(r, 10));
}
out.afterCollect = live();
console.log(JSON.stringify(out));
`;

describe('an engine frees its sessions', () => {
  it('should free every slot when closed, and when collected without close()', () => {
    const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', SCRIPT], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ before: 0, closed: 500, afterClose: 0, dropped: 500, afterCollect: 0 });
  });
});
