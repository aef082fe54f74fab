/**
 * The peer suites (Gemini CLI, OpenHands, Roo Code and goose) replayed with the shipped default preset
 * (`CONFIG_PRESETS.default`: FITTED_DEFAULT laid over the built-in values, what the CLI, hook, serve and a
 * config without a preset run), not only with `new LoopDetector()`'s built-in values: at least 90% of their
 * loops caught and no legitimate sequence broken, one-phase and two-phase. A fit that weighs a kind the
 * fit data hardly hold too low (chanting at 0.6 misses three of Gemini CLI's streamed-text loops) fails here.
 */
import { describe, expect, it } from 'vitest';
import { CONFIG_PRESETS } from '../src/presets/config-options.js';
import { type Phase, tally } from './helpers/peer-cases.js';
import { GEMINI_CLI_CASES } from './helpers/peer-suites/gemini-cli.js';
import { OPENHANDS_CASES } from './helpers/peer-suites/openhands.js';
import { ROO_CODE_CASES } from './helpers/peer-suites/roo-code.js';

const shipped = CONFIG_PRESETS.default?.(undefined) ?? {};
const suites = { 'Gemini CLI': GEMINI_CLI_CASES, OpenHands: OPENHANDS_CASES, 'Roo Code and goose': ROO_CODE_CASES };

describe('the peer suites with the shipped default', () => {
  for (const phase of ['one-phase', 'two-phase'] as const satisfies readonly Phase[]) {
    it(`should catch at least 90% of their loops and break no legitimate sequence, ${phase}`, () => {
      let loops = 0;
      let caught = 0;
      for (const [suite, cases] of Object.entries(suites)) {
        const t = tally(cases, phase, shipped);
        expect(t.legitimateBroken, suite).toBe(0);
        loops += t.loops;
        caught += t.caught;
      }
      expect(caught / loops).toBeGreaterThanOrEqual(0.9);
      // as the built-in values do, suite by suite
      for (const [suite, cases] of Object.entries(suites)) expect(tally(cases, phase, shipped).caught, suite).toBe(tally(cases, phase).caught);
    });
  }
});
