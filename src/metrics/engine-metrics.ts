/**
 * OpenTelemetry metrics of a LoopEngine, through `@opentelemetry/api`: nothing at all (not even a clock
 * read) until the host has registered a MeterProvider (an SDK) before making the engine, or passes a
 * `meter`. Labels are bounded: never a session id, a tool name or a custom detector's kind.
 *
 * | instrument | kind | unit | attributes |
 * |---|---|---|---|
 * | `loopwatch.checks` | counter | `{call}` | `operation`: check, propose, record |
 * | `loopwatch.verdicts` | counter | `{verdict}` | `kind` (built-in kinds, else `custom`), `action` |
 * | `loopwatch.decisions` | counter | `{decision}` | `phase`, `action`: allow, warn, ask, deny, stop |
 * | `loopwatch.sessions.live` | observable up-down counter | `{session}` | |
 * | `loopwatch.sessions.dropped` | counter | `{session}` | `reason`: ended, evicted, expired |
 * | `loopwatch.check.duration` | histogram | `s` | `operation`: check, batch, propose, record, decide_batch |
 */
import type { LiveDecision } from '../live/live-call.js';
import { MissingPeerError } from '../errors.js';
import { OTEL_API_PEER, requirePeer } from '../peers/optional-peers.js';
import { BUILT_IN_LOOP_KINDS, type Verdict } from '../types.js';

/** Attributes of a measurement (OpenTelemetry's `Attributes`, as loopwatch gives them). */
export type MetricAttributes = Readonly<Record<string, string>>;

/** A description and a unit, as an OpenTelemetry Meter takes them when it makes an instrument. */
export interface InstrumentOptions {
  readonly description?: string;
  readonly unit?: string;
}

/**
 * What an engine uses of an OpenTelemetry `Meter` (from `@opentelemetry/api`, which any Meter satisfies):
 * declared here so that loopwatch's types need no OpenTelemetry package installed.
 */
export interface MeterLike {
  createCounter(name: string, options?: InstrumentOptions): { add(value: number, attributes?: MetricAttributes): void };
  createHistogram(name: string, options?: InstrumentOptions): { record(value: number, attributes?: MetricAttributes): void };
  createObservableUpDownCounter(name: string, options?: InstrumentOptions): { addCallback(callback: (result: { observe(value: number): void }) => void): void };
}

type Counter = ReturnType<MeterLike['createCounter']>;
type Histogram = ReturnType<MeterLike['createHistogram']>;
type Attributes = MetricAttributes;

/** What an engine uses of `@opentelemetry/api` (loaded only when a MeterProvider is registered). */
interface OtelApi {
  readonly metrics: { getMeter(name: string): MeterLike };
  createNoopMeter(): object;
}

/** The meter's name (the instrumentation scope). */
export const METER_NAME = 'loopwatch';

/** The built-in detectors' kinds (metrics label other kinds `custom`, so labels stay bounded). */
export const BUILT_IN_KINDS: ReadonlySet<string> = new Set<string>(BUILT_IN_LOOP_KINDS);

/**
 * Where @opentelemetry/api 1.x keeps what was registered globally (shared by every copy of the API in the
 * process): looked at first, so that with nothing registered the API is not even loaded.
 */
const OTEL_GLOBAL = Symbol.for('opentelemetry.js.api.1');

/** What an engine's operation was. */
export type Operation = 'check' | 'batch' | 'propose' | 'record' | 'decide_batch';

/** Attribute sets made once, so recording allocates nothing. */
function attrsBy<K extends string>(key: string, values: readonly K[]): Readonly<Record<K, Attributes>> {
  return Object.fromEntries(values.map((v): [K, Attributes] => [v, Object.freeze({ [key]: v })])) as Record<K, Attributes>;
}

const OPERATIONS = attrsBy<Operation>('operation', ['check', 'batch', 'propose', 'record', 'decide_batch']);

/** An engine's instruments. */
export class EngineMetrics {
  private readonly checks: Counter;
  private readonly verdicts: Counter;
  private readonly decisions: Counter;
  private readonly dropped: Counter;
  private readonly duration: Histogram;
  private readonly verdictAttrs = new Map<string, Attributes>();
  private readonly decisionAttrs = new Map<string, Attributes>();

  constructor(meter: MeterLike, liveSessions: () => number) {
    this.checks = meter.createCounter('loopwatch.checks', { description: 'Tool calls checked (recorded, or checked before they ran)', unit: '{call}' });
    this.verdicts = meter.createCounter('loopwatch.verdicts', { description: 'Verdicts given, by loop kind and action', unit: '{verdict}' });
    this.decisions = meter.createCounter('loopwatch.decisions', { description: 'Two-phase decisions, by phase and action', unit: '{decision}' });
    this.dropped = meter.createCounter('loopwatch.sessions.dropped', { description: 'Sessions ended, evicted or expired', unit: '{session}' });
    this.duration = meter.createHistogram('loopwatch.check.duration', { description: 'Time of one engine operation (a call or a batch)', unit: 's' });
    meter.createObservableUpDownCounter('loopwatch.sessions.live', { description: 'Sessions live now', unit: '{session}' }).addCallback((r) => r.observe(liveSessions()));
  }

  /** Counts `calls` calls of an operation that took `seconds`. */
  operation(op: Operation, calls: number, seconds: number): void {
    const a = OPERATIONS[op];
    this.checks.add(calls, op === 'batch' ? OPERATIONS.check : op === 'decide_batch' ? OPERATIONS.propose : a);
    this.duration.record(seconds, a);
  }

  /** Counts a verdict. */
  verdict(v: Verdict): void {
    const kind = BUILT_IN_KINDS.has(v.kind) ? v.kind : 'custom';
    const key = `${kind}/${v.action}`;
    let a = this.verdictAttrs.get(key);
    if (a === undefined) this.verdictAttrs.set(key, (a = Object.freeze({ kind, action: v.action })));
    this.verdicts.add(1, a);
  }

  /** Counts a two-phase decision (and its verdict). */
  decision(d: LiveDecision): void {
    const key = `${d.phase}/${d.action}`;
    let a = this.decisionAttrs.get(key);
    if (a === undefined) this.decisionAttrs.set(key, (a = Object.freeze({ phase: d.phase, action: d.action })));
    this.decisions.add(1, a);
    if (d.verdict !== null && (d.phase === 'record' || d.action === 'deny' || d.action === 'stop')) this.verdict(d.verdict);
  }

  /** Counts a dropped session. */
  droppedSession(reason: 'ended' | 'evicted' | 'expired'): void {
    this.dropped.add(1, { reason });
  }
}

/**
 * The engine's instruments on `meter`, or on the global MeterProvider's meter; null when metrics are off
 * (`meter: false`) or no MeterProvider is registered (then the engine does not even read the clock).
 */
export function engineMetrics(meter: MeterLike | false | undefined, liveSessions: () => number): EngineMetrics | null {
  if (meter === false) return null;
  if (meter !== undefined) return new EngineMetrics(meter, liveSessions);
  const registered = (globalThis as Record<symbol, { metrics?: unknown } | undefined>)[OTEL_GLOBAL];
  if (registered?.metrics === undefined) return null;
  const api = otelApi();
  if (api === null) return null;
  const m = api.metrics.getMeter(METER_NAME);
  if (m instanceof api.createNoopMeter().constructor) return null;
  return new EngineMetrics(m, liveSessions);
}

/** Said once per process: a MeterProvider is registered but loopwatch cannot load @opentelemetry/api. */
let apiMissingSaid = false;

/**
 * The OpenTelemetry API, or null (said once, as a process warning) when it cannot be found from here: a
 * provider is registered, so the host has the API, but in a layout loopwatch does not see it from (it is an
 * optional peer dependency). The engine then runs without metrics rather than failing.
 */
function otelApi(): OtelApi | null {
  try {
    return requirePeer<OtelApi>("an engine's OpenTelemetry metrics", OTEL_API_PEER, import.meta.url);
  } catch (e) {
    if (!(e instanceof MissingPeerError)) throw e;
    if (!apiMissingSaid) process.emitWarning(e.message, { code: e.code });
    apiMissingSaid = true;
    return null;
  }
}
