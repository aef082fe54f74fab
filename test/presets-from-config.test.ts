/**
 * A fitted config can be shipped as a preset: presetFromConfig builds a preset from a config (what
 * `loopwatch calibrate -o FILE` writes, notes and all), equal to the config's own options, with a caller's
 * extra options laid over it as every preset lays them; and scripts/preset-from-config.mjs keeps a config
 * as a TypeScript module (refusing one that is not valid options), the form a shipped default is built from.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LoopDetector, configOptions, presetFromConfig } from '../src/index.js';
import type { LoopDetectorOptions, ToolEvent } from '../src/index.js';
import { tempDir } from './helpers/cli.js';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCRIPT = fileURLToPath(new URL('../scripts/preset-from-config.mjs', import.meta.url));

/** A config as calibrate writes it: a preset, fitted options, and the notes. */
const FITTED = {
  preset: 'balanced',
  policy: { ladder: ['warn', 'break'], minConfidence: 0.6, interleavedStep: 0.75, kindWeights: { result_repeat: 0, cycle: 1.5 } },
  detectors: { exactRepeat: { threshold: 2 } },
  expected: { twoPhase: { stepLimitBroken: { rate: 0.4, count: 2, of: 5 } } },
  fitted: { command: 'loopwatch calibrate runs/ -o fit.json', date: '2026-12-04T00:00:00.000Z', folds: 5, seed: 1 },
};

/** When each call of a failing check run again and again gets its first verdict, and what it is. */
function verdicts(options: LoopDetectorOptions): string[] {
  const d = new LoopDetector(options);
  const out: string[] = [];
  for (let i = 0; i < 8; i++) {
    const e: ToolEvent = { tool: 'bash', args: { command: 'make test' }, error: 'make: *** [test] Error 2' };
    const v = d.check(e);
    if (v !== null) out.push(`${i}:${v.action}`);
  }
  return out;
}

describe('presets from fitted configs', () => {
  it('should build a preset equal to the config, extra options laid over it', () => {
    const preset = presetFromConfig(FITTED);
    expect(preset()).toEqual(configOptions(FITTED));
    expect(verdicts(preset())).toEqual(verdicts(configOptions(FITTED)));
    expect(verdicts(preset())[0]).toBe('1:warn');
    // a policy field of the extra replaces that field only; a detector's field that one field only
    const more = preset({ policy: { ladder: ['warn', 'warn', 'break'] }, detectors: { exactRepeat: { window: 30 } } });
    expect(more.policy).toMatchObject({ ladder: ['warn', 'warn', 'break'], minConfidence: 0.6, interleavedStep: 0.75 });
    expect(more.detectors?.exactRepeat).toMatchObject({ threshold: 2, window: 30 });
    expect(() => presetFromConfig({ ...FITTED, policy: { ladder: 3 } })).toThrow(/options\.policy\.ladder must be/);
  });

  it('should keep a config as a module a preset is built from, and refuse one that is not options', async () => {
    const config = join(dir, 'fit.json');
    writeFileSync(config, JSON.stringify(FITTED));
    const out = join(dir, 'fitted-default.ts');
    const run = spawnSync(process.execPath, [SCRIPT, config, out, 'FITTED_DEFAULT'], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const mod = (await import(out)) as { FITTED_DEFAULT: unknown };
    expect(mod.FITTED_DEFAULT).toEqual(FITTED);
    expect(presetFromConfig(mod.FITTED_DEFAULT)()).toEqual(configOptions(FITTED));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ policy: { minConfidence: 2 } }));
    const refused = spawnSync(process.execPath, [SCRIPT, bad, join(dir, 'bad.ts')], { encoding: 'utf8' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/not a config loopwatch accepts \(options\.policy\.minConfidence/);
    expect(existsSync(join(dir, 'bad.ts'))).toBe(false);
  });
});
