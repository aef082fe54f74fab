// Writes test/setup/durations.json (the seconds each test file over 3 s took), either at the end of a vitest
// run of the whole suite, as a reporter beside the default one:
//   npx vitest run --reporter=default --reporter=./scripts/test-durations.mjs
// or from the log of such a run (a `.ci/run` log: vitest's default reporter, colours or not), so a fresh
// clone's CI run gives the figures without a second run of the suite:
//   node scripts/test-durations.mjs CI.log [OUT.json]
// test/setup/sequencer.ts starts the longest files first with it. A file's seconds are its import (with its
// describe callbacks) and its tests and hooks, as vitest's own line for the file counts them (the reporter
// adds the module's collectDuration and duration, the log's `✓ project test/x.test.ts (n tests) 1234ms`
// is the same sum): the json report's times leave out a file's beforeAll, so hook-cli-scenarios, whose
// hook processes all run there, read 0.2 s of its 59. Rounded, so small changes leave it alone.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
const DURATIONS = fileURLToPath(new URL('../test/setup/durations.json', import.meta.url));

/** Writes `[file, seconds]` rows over 3 s, longest first, to `out` (test/setup/durations.json). */
function write(rows, out = DURATIONS) {
  const kept = rows.filter(([, s]) => s > 3).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  writeFileSync(out, `${JSON.stringify(Object.fromEntries(kept), null, 1)}\n`);
  console.log(`${relative(process.cwd(), out)}: ${kept.length} files over 3 s`);
}

/** `[file, seconds]` of every file vitest's default reporter listed in `log` (a file failed or passed). */
function durationsFromLog(log) {
  const rows = new Map();
  for (const line of log.replace(/\x1b\[[0-9;]*m/g, '').split('\n')) {
    const m = /^ [✓❯×] +(?:\S+ +)?(test\/\S+\.test\.ts) \(\d+ tests?[^)]*\) (\d+)ms$/.exec(line);
    if (m !== null) rows.set(m[1], Math.round(Number(m[2]) / 1000));
  }
  return [...rows];
}

/** A vitest reporter that writes the durations file when the run ends. */
export default class TestDurations {
  /** Each file's seconds over 3, longest first, written to test/setup/durations.json. */
  onTestRunEnd(modules) {
    write(
      modules.map((m) => {
        const d = m.diagnostic();
        return [relative(root, m.moduleId).split('\\').join('/'), Math.round((d.collectDuration + d.duration) / 1000)];
      }),
    );
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [log, out] = process.argv.slice(2);
  if (log === undefined) {
    console.error('usage: node scripts/test-durations.mjs CI.log [OUT.json] (or use it as a vitest reporter)');
    process.exit(2);
  }
  const rows = durationsFromLog(readFileSync(log, 'utf8'));
  if (rows.length === 0) {
    console.error(`test-durations: no vitest file lines (" ✓ project test/x.test.ts (n tests) 1234ms") in ${log}`);
    process.exit(1);
  }
  write(rows, out);
}
