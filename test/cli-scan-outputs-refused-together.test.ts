/**
 * A scan refused because one of its outputs cannot be written (a missing folder for `--html`, a folder as
 * `--metrics`) leaves the outputs opened before it as they were: the `--output` file keeps its last report,
 * and nothing is left beside it. Before, `--output` was emptied when opened, so a typo in `--html` cost the
 * last good report. In-process.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { tempFolder } from './helpers/temp-folder.js';

const CALL = `${JSON.stringify({ session: 's', tool: 'Bash', args: { command: 'make' }, error: 'Exit code 2' })}\n`;

describe('scan outputs refused together', () => {
  it('should keep the --output file as it was when a later output cannot be opened', async () => {
    const cases: ReadonlyArray<(dir: string) => string[]> = [
      (dir) => ['--html', join(dir, 'missing', 'report.html')],
      (dir) => [`--markdown=${join(dir, 'missing', 'summary.md')}`],
      (dir) => ['--metrics', dir],
    ];
    for (const flags of cases) {
      const dir = tempFolder('outputs-refused');
      const out = join(dir, 'report.jsonl');
      writeFileSync(out, 'last good report\n');
      const later = flags(dir);
      const r = await loopwatchInProcess(['scan', '-', '--jsonl', '-o', out, ...later], CALL);
      expect(r.code, `${later.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain('cannot write the file');
      expect(readFileSync(out, 'utf8'), later.join(' ')).toBe('last good report\n');
      expect(readdirSync(dir), later.join(' ')).toEqual(['report.jsonl']);
    }
  });
});
