/**
 * scripts/devset/rebuild.mjs builds ten sets from their manifests: the devset (manifest.jsonl, the
 * default) and the held-out sets (`--set holdout`: holdout-manifest.jsonl, into holdout/; `--set holdout2`:
 * holdout2-manifest.jsonl, into holdout2/; `--set holdout3` to `--set holdout9` likewise). Checked against
 * an empty folder here (`--check --out`), so no mirror is needed: each set names its own manifest's files
 * as missing. An unknown set is a usage error. Where the sets were rebuilt (/work/sets, or
 * LOOPWATCH_SETS), the fifth to ninth held-out sets are checked against their manifests too; each skipped
 * where it is absent.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const script = join('scripts', 'devset', 'rebuild.mjs');
const empty = mkdtempSync(join(tmpdir(), 'devset-rebuild-sets-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));
const run = (args: string[]) => spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
const lines = (manifest: string): { file: string }[] =>
  readFileSync(join('scripts', 'devset', manifest), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as { file: string });

describe('rebuild.mjs sets', () => {
  it.each([
    ['devset', [], 'manifest.jsonl'],
    ['holdout', ['--set', 'holdout'], 'holdout-manifest.jsonl'],
    ['holdout2', ['--set', 'holdout2'], 'holdout2-manifest.jsonl'],
    ['holdout3', ['--set', 'holdout3'], 'holdout3-manifest.jsonl'],
    ['holdout4', ['--set', 'holdout4'], 'holdout4-manifest.jsonl'],
    ['holdout5', ['--set', 'holdout5'], 'holdout5-manifest.jsonl'],
    ['holdout6', ['--set', 'holdout6'], 'holdout6-manifest.jsonl'],
    ['holdout7', ['--set', 'holdout7'], 'holdout7-manifest.jsonl'],
    ['holdout8', ['--set', 'holdout8'], 'holdout8-manifest.jsonl'],
    ['holdout9', ['--set', 'holdout9'], 'holdout9-manifest.jsonl'],
  ])('should check the %s manifest\'s files', (_name, flags, manifest) => {
    const files = lines(manifest);
    const r = run([...flags, '--check', '--out', empty]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`rebuild: 0 of ${files.length} files checked`);
    expect(r.stderr).toContain(`${files[0]!.file}: missing`);
  });

  it('should name the sets when asked for another', () => {
    const r = run(['--set', 'testset', '--check', '--out', empty]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--set must be one of devset, holdout, holdout2, holdout3, holdout4, holdout5, holdout6, holdout7, holdout8, holdout9, holdout10, got "testset"');
  });

  const sets = process.env.LOOPWATCH_SETS ?? '/work/sets';
  for (const set of ['holdout5', 'holdout6', 'holdout7', 'holdout8', 'holdout9']) {
    const built = join(sets, set);
    it.skipIf(!existsSync(join(built, 'sessions.jsonl')))(`should find a rebuilt ${set} whole against its manifest`, () => {
      const files = lines(`${set}-manifest.jsonl`);
      const r = run(['--set', set, '--check', '--out', built]);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toContain(`rebuild: ${files.length} of ${files.length} files checked`);
    });
  }
});
