/**
 * The synthetic fleet behind `loopwatch demo`: generation (seeded, the same on every machine), the scan
 * through LoopDetector, scoring against the injected truth, and the text report. Every export named.
 */
export { DEFAULT_SEED, DEFAULT_SESSIONS, INJECTED_KINDS, LEGIT_PATTERNS, PLAN_BLOCK, SESSION_CALLS } from './truth.js';
export type { AgentStyle, Block, FleetOptions, FleetSession, InjectedLoop, LegitPattern, SessionTruth } from './truth.js';
export { MAX_SESSIONS, fleetSession, generateFleet, iterateFleet, resolveFleetOptions } from './fleet.js';
export { scanEvents, scanFleet } from './scan.js';
export type { FleetVerdicts, ScanVerdict } from './scan.js';
export { evaluateFleet } from './evaluate.js';
export type { EvaluateOptions, FleetEvaluation } from './evaluate.js';
export { SCORE_DEFAULTS, judgeSession, median, scoreFleet } from './score.js';
export type { FleetScore, KindRecall, LegitFalsePositives, ScoreOptions, SessionJudgement, VerdictPrecision } from './score.js';
export { formatFleetScore, percent, table } from './format.js';
export { Rng, hashString, mix32, streamSeed } from './random.js';
