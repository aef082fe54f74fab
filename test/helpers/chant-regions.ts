/** How many chanting regions this thread's module holds, for tests that check regions are made and freed. */
import { CHANTING_DEFAULTS } from '../../src/index.js';
import { chantLayout } from '../../src/wasm/chant-layout.js';
import * as A from '../../src/wasm/generated/abi.js';
import { sharedCore } from '../../src/wasm/wasm-core.js';

/** Chanting regions live in this thread's module under the default chanting options. */
export function liveRegions(): number {
  const core = sharedCore();
  const id = core.acquire(chantLayout(CHANTING_DEFAULTS));
  const live = core.instance.views().u32[(A.CONFIGS + id * A.CONFIG_SIZE + A.C_LIVE) >>> 2] as number;
  core.release(id);
  return live;
}
