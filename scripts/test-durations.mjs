// Writes test/setup/durations.json (the seconds each test file over 3 s took) at the end of a vitest run of
// the whole suite, as a reporter beside the default one:
//   npx vitest run --reporter=default --reporter=./scripts/test-durations.mjs
// test/setup/sequencer.ts starts the longest files first with it. A file's seconds are its import (with its
// describe callbacks) and its tests and hooks, as vitest's own line for the file counts them: the json
// report's times leave out a file's beforeAll, so hook-cli-scenarios, whose hook processes all run there,
// read 0.2 s of its 59. Rounded, so small changes leave it alone.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/** A vitest reporter that writes the durations file when the run ends. */
export default class TestDurations {
  /** Each file's seconds over 3, longest first, written to test/setup/durations.json. */
  onTestRunEnd(modules) {
    const rows = modules
      .map((m) => {
        const d = m.diagnostic();
        return [relative(root, m.moduleId).split('\\').join('/'), Math.round((d.collectDuration + d.duration) / 1000)];
      })
      .filter(([, s]) => s > 3)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    writeFileSync(new URL('../test/setup/durations.json', import.meta.url), `${JSON.stringify(Object.fromEntries(rows), null, 1)}\n`);
    console.log(`test/setup/durations.json: ${rows.length} files over 3 s`);
  }
}
