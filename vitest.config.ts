import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/setup/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // a temp folder per run; the run fails naming any loopwatch-* folder a test leaves behind
    globalSetup: ['test/setup/temp-folders.ts'],
    testTimeout: 60_000,
    // two test files at once, also on 2 cores (vitest's default there is 1): most files wait on child
    // processes, worker threads or sockets, so the suite ran in 385 s instead of 480-510 s here
    maxWorkers: 2,
    // the longest files first (test/setup/durations.json), so no long file starts last on a fresh clone
    sequence: { sequencer: LongestFirst },
  },
});
