import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { splitTestFiles } from './test/setup/isolation.js';
import { LongestFirst } from './test/setup/sequencer.js';

// two projects (test/setup/isolation.ts decides, from each file's text): files that may change or read
// process-wide state run isolated, a fresh worker each; the rest share workers, their modules loaded once
// per worker. The same files run either way; docs/testing.md has the figures.
const { isolated, shared } = splitTestFiles(fileURLToPath(new URL('.', import.meta.url)));

export default defineConfig({
  test: {
    // a temp folder per run; the run fails naming any loopwatch-* folder a test leaves behind (made once
    // however many projects run it: test/setup/temp-folders.ts)
    globalSetup: ['test/setup/temp-folders.ts'],
    // each test file's temp folders removed when it ends, also in a shared worker; the variables Node acts on
    // as it starts removed from the environment, as the installed hook line does (test/setup/start-variables.ts)
    setupFiles: ['test/setup/temp-cleanup.ts', 'test/setup/cpu-use.ts', 'test/setup/start-variables.ts'],
    testTimeout: 60_000,
    // two test files at once, also on 2 cores (vitest's default there is 1): most files wait on child
    // processes, worker threads or sockets, so the suite ran in 385 s instead of 480-510 s here
    maxWorkers: 2,
    // the longest files first (test/setup/durations.json), so no long file starts last on a fresh clone
    sequence: { sequencer: LongestFirst },
    projects: [
      { extends: true, test: { name: 'isolated', include: isolated, isolate: true } },
      { extends: true, test: { name: 'shared', include: shared, isolate: false } },
    ],
  },
});
