/**
 * loopwatch: loop detection for AI agents. The public surface, every export named.
 */
export { LoopDetector } from './session/loop-detector.js';
export type { BatchEntry, VerdictListener } from './session/loop-detector.js';
export type { LiveAction, LiveCall, LiveDecision, LivePhase } from './live/live-call.js';
export { MAX_CALL_ID_LENGTH } from './live/live-call.js';
export { LiveGuard } from './engine/live-guard.js';
export { MAX_STOPPED } from './engine/dropped-stops.js';
export type { LiveGuardOptions } from './engine/live-guard.js';
export { LATE_IDS, MAX_BLOCKED, MAX_PENDING, PENDING_PROPOSALS } from './live/live-state.js';
export { StatsAggregate } from './session/stats.js';
export type { AggregateStats, DetectionStats, SessionStats } from './session/stats.js';
export { presets, presetOptions, GRADUATED } from './presets/presets.js';
export type { ChimeraParams, MultiResolutionParams, ToolLoopParams } from './presets/presets.js';
export { CONFIG_NOTES, CONFIG_PRESETS, configOptions, presetFromConfig } from './presets/config-options.js';
export type { ConfigReader } from './presets/config-options.js';
export type { Detector, ObservedCall } from './detectors/detector.js';
export type {
  BuiltInLoopKind,
  CallRef,
  LoopAction,
  LoopKind,
  LoopSignal,
  Progress,
  Recommendation,
  ToolEvent,
  Verdict,
} from './types.js';
export { BUILT_IN_LOOP_KINDS } from './types.js';
export type {
  DetectorSetting,
  DetectorsOptions,
  Engine,
  FusionMode,
  LoopDetectorOptions,
  PolicyOptions,
  PrimaryMode,
  ProgressMode,
  RecommendMode,
  ResolvedOptions,
  ToolRule,
} from './options/options.js';
export { POLICY_DEFAULTS } from './options/options.js';
export type { AllowRule, ResolvedAllowRule } from './options/allow-rules.js';
export type {
  ChantingOptions,
  CycleOptions,
  DeadEndOptions,
  ExactRepeatOptions,
  FrequencyOptions,
  ResultRepeatOptions,
  SemanticOptions,
  SimilarArgsOptions,
  StateRepeatOptions,
} from './options/detector-options.js';
export {
  CHANTING_DEFAULTS,
  CYCLE_DEFAULTS,
  DEAD_END_DEFAULTS,
  EXACT_REPEAT_DEFAULTS,
  FREQUENCY_DEFAULTS,
  RESULT_REPEAT_DEFAULTS,
  SEMANTIC_DEFAULTS,
  SIMILAR_ARGS_DEFAULTS,
  STATE_REPEAT_DEFAULTS,
} from './options/detector-options.js';
export { resolveOptions } from './options/resolve-options.js';
export { SNAPSHOT_MAGIC, SNAPSHOT_VERSION } from './snapshot/snapshot-format.js';
export { callSignature } from './fingerprint/signature.js';
export type { SignatureOptions } from './fingerprint/signature.js';
export { REDACTED, redactSecrets } from './text/redact.js';
export { VERDICT_TEXT_LIMIT } from './policy/verdict-policy.js';
export { PREVIEW_ARGS_LENGTH, SHOWN_TOOL_LENGTH } from './text/call-preview.js';
export { TEXT_LIMIT } from './text/text-limit.js';
export { MASK_LIMIT } from './text/mask-volatile.js';
export { maskVolatile } from './text/mask-volatile.js';
export { isInfraFailure } from './text/infra-failure.js';
export {
  CapacityError,
  ChecksOnlyError,
  DetectorError,
  DisposedError,
  ErrorCode,
  InvalidEventError,
  OptionRangeError,
  OptionTypeError,
  SnapshotError,
  ClosedError,
  SessionLostError,
  LoopStoppedError,
  CallDeniedError,
  SessionStoppedError,
  WasmTrapError,
  MissingPeerError,
  isLoopwatchError,
} from './errors.js';
export type { ErrorCodeValue } from './errors.js';
export { LoopEngine } from './engine/loop-engine.js';
export type { EngineStats, SessionEvent, SessionLiveCall } from './engine/loop-engine.js';
export type { EvictedSession, EvictedSessionInfo, LoopEngineOptions, ResolvedEngineOptions } from './engine/engine-options.js';
export type { InstrumentOptions, MeterLike, MetricAttributes } from './metrics/engine-metrics.js';
export { LoopPool } from './pool/loop-pool.js';
export type { PoolStats } from './pool/loop-pool.js';
export type { LoopPoolEvents, LostSession, WorkerRestart } from './pool/pool-events.js';
export type { LoopPoolOptions } from './pool/pool-options.js';
export { readInputs, FORMAT_NAMES } from './formats/read-inputs.js';
export type { FormatName, ReadInputsOptions } from './formats/read-inputs.js';
export type { ErrorInfo, IssueCode, TraceCall, TraceEnd, TraceIssue, TraceItem, TraceNote } from './formats/trace-record.js';
export { readSessionLabels, LABELS_FILE_NAME } from './formats/session-labels.js';
export type { SessionLabel, SessionLabels } from './formats/session-labels.js';
export { ServeServer } from './serve/serve-server.js';
export type { RestoreReport, StopReport } from './serve/serve-server.js';
export type { ServeOptions } from './serve/serve-options.js';
export { BearerToken } from './serve/bearer-token.js';
export type { ServiceCall } from './serve/call-schema.js';
export type { CallResult } from './serve/check-service.js';
