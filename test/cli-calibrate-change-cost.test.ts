/**
 * `loopwatch calibrate --change-cost N`: the step-limit runs broken each parameter a fit moves off its
 * starting value must earn (search.ts CHANGE_COST by default, 0 for every move that helps); a value that
 * is not a whole number from 0 is refused, naming the flag and the value.
 */
import { describe, expect, it } from 'vitest';
import { parseCalibrateArgs } from '../src/cli/calibrate-command.js';
import { CHANGE_COST } from '../src/calibrate/search.js';

describe('loopwatch calibrate --change-cost', () => {
  it('should default to CHANGE_COST and take a whole number from 0', () => {
    expect(CHANGE_COST).toBe(1);
    expect(parseCalibrateArgs(['runs/']).changeCost).toBe(CHANGE_COST);
    expect(parseCalibrateArgs(['runs/', '--change-cost', '0']).changeCost).toBe(0);
    expect(parseCalibrateArgs(['runs/', '--change-cost', '3']).changeCost).toBe(3);
  });

  it('should refuse a value that is not a whole number from 0, naming it', () => {
    expect(() => parseCalibrateArgs(['runs/', '--change-cost=-1'])).toThrow(/--change-cost.*-1/);
    expect(() => parseCalibrateArgs(['runs/', '--change-cost', '1.5'])).toThrow(/--change-cost.*1.5/);
  });
});
