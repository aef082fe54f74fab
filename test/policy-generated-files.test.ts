/**
 * A script that prints only the files it wrote, re-run after each edit, is progress: what it makes is in
 * those files. A Claude Code session of a low-light imaging thesis (holdout2 a1fe1fc0) edits a comparison
 * script, runs it, edits it again, runs it: each run prints "Saved: 111_R_compare_final.png" for each figure
 * and "All comparisons saved to:" and the folder, the same text each time while the figures change. That
 * output is neither a pass nor a failure, so it read as a reproduction script describing the same behaviour
 * after each edit: a frequency warning at the third run. The stuck twins still fire: the same script with
 * only reads between, and one printing a metric beside its files (the metric is its behaviour). Both
 * engines, one- and two-phase.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { SAVED_LOOK, reportsSavedFiles } from '../src/text/saved-files.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const SCRIPT = '/home/me/thesis/src/decomposition/compare_r_final.py';
const FIGURES = ['111', '146', '179', '1', '22', '23', '493'].map((n) => `Saved: ${n}_R_compare_final.png`);
const SAVED = `${FIGURES.join('\n')}\n\nAll comparisons saved to:\n  /home/me/thesis/results/reflectance_final_comparison\n`;

const run = (result: string): ToolEvent => ({ tool: 'Bash', args: { command: `conda run -n viv python3 ${SCRIPT} 2>&1`, description: 'Run comparison' }, result });
const edit = (i: number): ToolEvent => ({
  tool: 'Edit',
  args: { file_path: SCRIPT, old_string: `figsize=(${i}, 4)`, new_string: `figsize=(${i + 1}, 4)` },
  result: `The file ${SCRIPT} has been updated successfully.`,
});
const read = (i: number): ToolEvent => ({ tool: 'Read', args: { file_path: `/home/me/thesis/results/fig${i}.png` }, result: `[image ${i}]` });

/** The script after each edit of it (a different change each time), eight times. */
const afterEachEdit = (result: string): ToolEvent[] => [0, 1, 2, 3, 4, 5, 6, 7].flatMap((i) => [edit(i), run(result)]);

describe('output that only reports the files written', () => {
  it('should read lists of saved files, with the folder they went to', () => {
    for (const t of [SAVED, 'Saved reproduction.png', 'Figure saved to out/loss.png\n', 'Wrote report.html', "Exported: 'tables/summary.csv'", 'Plot saved as plots/a.pdf.']) {
      expect(reportsSavedFiles(t), t).toBe(true);
    }
  });

  it('should not read a metric, an error, a path alone or nothing as such a report', () => {
    for (const t of ['Saved: a.png\nPSNR: 23.1 dB', 'Error: could not save a.png', '/tmp/a', '', 'saved', 'Created 3 users', `Saved: ${'x'.repeat(5000)}.png`]) {
      expect(reportsSavedFiles(t), t).toBe(false);
    }
  });
});

/** reportsSavedFiles as first written: every line that says anything split out and tried on both expressions. */
function plainSavedFiles(text: string): boolean {
  const SAVED_LINE =
    /^\s*(?:(?:[\w-]+\s+){0,3}(?:saved|written|exported|generated|created)\s+(?:to|as|at|in|into)\s*:?(?:\s*\S+)?|(?:saved|wrote|written|exported|generated|created)\s*:?\s+['"`]?[^\s'"`]*\.[A-Za-z0-9]{1,5}['"`]?)\s*\.?\s*$/i;
  const PATH_LINE = /^\s*['"`]?[^\s'"`]*[\/\\][^\s'"`]*['"`]?\s*$/;
  const t = text.length >= SAVED_LOOK ? text.slice(0, text.lastIndexOf('\n', SAVED_LOOK - 1) + 1) : text;
  const lines = t.split('\n').filter((l) => l.trim() !== '').slice(0, 64);
  if (lines.some((l) => l.length > 512)) return false;
  let saved = 0;
  for (const l of lines) {
    if (SAVED_LINE.test(l)) saved++;
    else if (!PATH_LINE.test(l)) return false;
  }
  return saved > 0;
}

describe('reading a list of saved files, line by line', () => {
  it('should answer as every line tried on both expressions', () => {
    const line = fc.oneof(
      fc.constantFrom('Saved: a.png', 'Figure saved to out/loss.png', 'Wrote report.html', '  /home/me/out', 'C:\\out\\a.png', "'./a/b'", 'out\\x', '/', '\\', 'PSNR: 23.1 dB', 'saved', '', ' ', '\r', 'All saved to:'),
      fc.string({ unit: fc.constantFrom('a', '/', '\\', ' ', '.', "'", 'S', 'd', ':', '\t'), maxLength: 20 }),
    );
    let yes = 0;
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), (ls) => {
        const t = ls.join('\n');
        if (plainSavedFiles(t)) yes++;
        expect(reportsSavedFiles(t)).toBe(plainSavedFiles(t));
      }),
      { numRuns: 3000 },
    );
    expect(yes).toBeGreaterThan(0);
  });
});

describe.each(ENGINES)('a generator re-run after each edit (%s engine)', (engine) => {
  it('should not flag it, one- or two-phase', () => {
    const events = afterEachEdit(SAVED);
    expect(flaggedActions(events, engine)).toEqual([]);
    expect(liveActions(events, engine)).toEqual([]);
  });

  it('should still flag it with only reads between', () => {
    const events = [0, 1, 2, 3, 4, 5, 6, 7].flatMap((i) => [read(i), run(SAVED)]);
    expect(flaggedActions(events, engine)).toContain('warn');
    expect(liveActions(events, engine)).toContain('warn');
  });

  it('should still break a script printing the same metric beside its files after each edit', () => {
    const events = afterEachEdit('Saved: out.png\nPSNR: 23.1 dB\n');
    expect(flaggedActions(events, engine)).toContain('break');
    expect(liveActions(events, engine)).toContain('deny');
  });
});
