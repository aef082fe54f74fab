/**
 * scripts/devset/rebuild.mjs builds four sets from their manifests: the devset (manifest.jsonl, the
 * default) and the held-out sets (`--set holdout`: holdout-manifest.jsonl, into holdout/; `--set holdout2`:
 * holdout2-manifest.jsonl, into holdout2/; `--set holdout3`: holdout3-manifest.jsonl, into holdout3/). Checked against
 * an empty folder here (`--check --out`), so no mirror is needed: each set names its own manifest's files
 * as missing. An unknown set is a usage error.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
    expect(r.stderr).toContain('--set must be one of devset, holdout, holdout2, holdout3, holdout4, got "testset"');
  });
});
