/**
 * The agent families eval, calibrate and the readers name runs by: kept in presets/agent-families.ts, below
 * the configs that read them (a config's `families` section), and exported here for the tools as before.
 */
export * from '../presets/agent-families.js';
