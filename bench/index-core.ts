/** The detectors "exact + frequency + cycle" means in the benchmarks. */
import type { LoopDetectorOptions } from '../src/options/options.js';

export const CORE: LoopDetectorOptions['detectors'] = {
  exactRepeat: true,
  frequency: true,
  cycle: true,
  semantic: false,
  similarArgs: false,
  resultRepeat: false,
  deadEnd: false,
  stateRepeat: false,
  chanting: false,
};
