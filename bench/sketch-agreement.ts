/**
 * How often the semantic sketch decides as exact Jaccard would, on the real agent traces in
 * ../shared/data/traces: per call, whether the detector fires, and whether it names the same similar calls.
 */
import { createReadStream } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import { defaultTraceDir, readSessions } from '../src/eval/trace-dir.js';
import { SEMANTIC_DEFAULTS } from '../src/options/detector-options.js';
import type { LoopDetectorOptions } from '../src/options/options.js';
import { LoopDetector } from '../src/session/loop-detector.js';
import { CORE } from './index-core.js';

/** The agreement figures. */
export interface SketchAgreement {
  calls: number;
  /** Calls where both fire or both stay quiet. */
  sameFiring: number;
  /** Calls where, besides, a firing names the same similar calls. */
  sameUnit: number;
  /** Calls where exact Jaccard fired. */
  exactFired: number;
  note: string;
}

/** Runs every trace call through a sketch session and an exact session; null when the traces are absent. */
export async function sketchAgreement(): Promise<SketchAgreement | null> {
  const dir = defaultTraceDir(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'));
  if (dir === null) return null;
  readSessions(dir);
  const only = (method: 'sketch' | 'exact'): LoopDetectorOptions => ({
    engine: 'reference',
    detectors: { ...CORE, exactRepeat: false, frequency: false, cycle: false, semantic: { method } },
    policy: { progress: 'ignore', minConfidence: 0, ladder: ['warn'] },
  });
  const sessions = new Map<string, [LoopDetector, LoopDetector]>();
  let calls = 0;
  let sameFiring = 0;
  let sameUnit = 0;
  let exactFired = 0;
  const lines = createInterface({ input: createReadStream(join(dir, 'events.jsonl.gz')).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const e = JSON.parse(line) as Record<string, unknown>;
    const id = String(e.session);
    let pair = sessions.get(id);
    if (pair === undefined) {
      pair = [new LoopDetector(only('sketch')), new LoopDetector(only('exact'))];
      sessions.set(id, pair);
    }
    const ev = { tool: e.tool as string, args: e.args, result: e.result, error: e.error };
    const a = pair[0].check(ev);
    const b = pair[1].check(ev);
    calls++;
    if ((a === null) === (b === null)) {
      sameFiring++;
      if (JSON.stringify(a?.unit) === JSON.stringify(b?.unit)) sameUnit++;
    }
    if (b !== null) exactFired++;
  }
  const pct = (n: number): string => ((100 * n) / Math.max(1, calls)).toFixed(2);
  const k = SEMANTIC_DEFAULTS.sketchSize;
  return {
    calls,
    sameFiring,
    sameUnit,
    exactFired,
    note:
      `${calls} trace calls: the ${k}-hash sketch and exact Jaccard agree on whether the semantic detector fires on ${sameFiring} (${pct(sameFiring)}%), ` +
      `and also on the similar calls it names on ${sameUnit} (${pct(sameUnit)}%); exact Jaccard fired on ${exactFired}.`,
  };
}
