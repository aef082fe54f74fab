/**
 * OpenTelemetry metrics of a LoopEngine, read through the real SDK (@opentelemetry/sdk-metrics): counts
 * of checks, verdicts and two-phase decisions, live and dropped sessions, operation durations; no session
 * id ever a label; and nothing measured when no MeterProvider is registered.
 */
import { metrics } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { afterEach, describe, expect, it } from 'vitest';
import { LoopEngine, OptionTypeError } from '../src/index.js';
import { engineMetrics } from '../src/metrics/engine-metrics.js';
import { STUCK } from './helpers/live-scenarios.js';
import { replay } from './helpers/live-replay.js';

function provider(): { provider: MeterProvider; collect: () => Promise<ResourceMetrics> } {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const p = new MeterProvider({ readers: [reader] });
  return { provider: p, collect: async () => (await reader.collect()).resourceMetrics };
}

/** Data points of instrument `name`: attributes and value (sum, gauge value, or histogram count). */
function points(rm: ResourceMetrics, name: string): { attributes: Record<string, unknown>; value: number }[] {
  const out: { attributes: Record<string, unknown>; value: number }[] = [];
  for (const sm of rm.scopeMetrics) {
    for (const m of sm.metrics) {
      if (m.descriptor.name !== name) continue;
      for (const dp of m.dataPoints) {
        const v = dp.value as number | { count: number };
        out.push({ attributes: dp.attributes as Record<string, unknown>, value: typeof v === 'number' ? v : v.count });
      }
    }
  }
  return out;
}

const sum = (ps: { value: number }[]): number => ps.reduce((a, p) => a + p.value, 0);

afterEach(() => {
  metrics.disable();
});

describe('LoopEngine OpenTelemetry metrics', () => {
  it('should count checks, verdicts, decisions and sessions, with bounded labels and no session ids', async () => {
    const { provider: p, collect } = provider();
    const engine = new LoopEngine({ meter: p.getMeter('test') });
    const looping = { tool: 'bash', args: { command: 'make' }, error: 'make: *** Error 2' };
    for (let i = 0; i < 4; i++) engine.check('secret-session-1', looping);
    engine.checkBatch([{ ...looping, session: 'secret-session-2' }, { ...looping, session: 'secret-session-2' }]);
    const steps = replay({ propose: (c) => engine.propose('secret-session-3', c), record: (c) => engine.record('secret-session-3', c) }, (STUCK[0] as (typeof STUCK)[number]).calls);
    engine.end('secret-session-1');
    const rm = await collect();

    const checks = points(rm, 'loopwatch.checks');
    const proposals = steps.length;
    const records = steps.filter((s) => s.record !== null).length;
    expect(sum(checks.filter((c) => c.attributes.operation === 'check'))).toBe(4 + 2);
    expect(sum(checks.filter((c) => c.attributes.operation === 'propose'))).toBe(proposals);
    expect(sum(checks.filter((c) => c.attributes.operation === 'record'))).toBe(records);

    // verdicts: as the engine's own stats count them
    expect(sum(points(rm, 'loopwatch.verdicts'))).toBe(engine.stats().detections);
    for (const v of points(rm, 'loopwatch.verdicts')) expect(Object.keys(v.attributes).sort()).toEqual(['action', 'kind']);
    const decisions = points(rm, 'loopwatch.decisions');
    expect(sum(decisions.filter((d) => d.attributes.phase === 'propose'))).toBe(proposals);
    expect(sum(decisions.filter((d) => d.attributes.action === 'deny'))).toBe(steps.filter((s) => s.propose.action === 'deny').length);

    expect(points(rm, 'loopwatch.sessions.live')).toEqual([{ attributes: {}, value: 2 }]);
    expect(points(rm, 'loopwatch.sessions.dropped')).toEqual([{ attributes: { reason: 'ended' }, value: 1 }]);
    expect(sum(points(rm, 'loopwatch.check.duration'))).toBe(4 + 1 + proposals + records);

    // no label anywhere carries a session id
    expect(JSON.stringify(rm.scopeMetrics.map((s) => s.metrics.map((m) => m.dataPoints.map((d) => d.attributes))))).not.toContain('secret-session');
    engine.close();
  });

  it('should use the global MeterProvider registered before the engine is made, and measure nothing without one', async () => {
    expect(engineMetrics(undefined, () => 0)).toBeNull();
    const { provider: p, collect } = provider();
    metrics.setGlobalMeterProvider(p);
    const engine = new LoopEngine();
    engine.check('s', { tool: 'read', args: { path: 'a' } });
    expect(sum(points(await collect(), 'loopwatch.checks'))).toBe(1);
    engine.close();
    expect(new LoopEngine({ meter: false }) instanceof LoopEngine).toBe(true);
    expect(() => new LoopEngine({ meter: {} as never })).toThrow(OptionTypeError);
  });
});
