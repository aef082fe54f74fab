/**
 * What users write today, measured beside loopwatch in the same run:
 *
 * - `md5`: the seed designs' pipeline: `tool:` + sorted-keys JSON (`json.dumps(sort_keys=True, default=str)`),
 *   MD5 hex, a window of hex strings, exact repeat + frequency + cycle over it;
 * - `sha256`: `JSON.stringify` (key order matters) + SHA-256 hex, the same window logic.
 */
import { createHash } from 'node:crypto';
import type { ToolEvent } from '../src/types.js';

/** Sorted-keys JSON, as Python's json.dumps(sort_keys=True, default=str). */
export function sortedJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return typeof v === 'bigint' ? JSON.stringify(String(v)) : (JSON.stringify(v) ?? 'null');
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(', ')}]`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}: ${sortedJson((v as Record<string, unknown>)[k])}`).join(', ')}}`;
}

/** A window of hex signatures with the seeds' exact-repeat, frequency and cycle checks. */
export class HexWindow {
  private readonly window: string[] = [];

  constructor(private readonly size = 20) {}

  /** Records a signature; returns whether any of the three checks fires. */
  check(sig: string): boolean {
    const w = this.window;
    w.push(sig);
    if (w.length > this.size) w.shift();
    const n = w.length;
    let run = 1;
    while (run < n && w[n - 1 - run] === sig) run++;
    let count = 0;
    for (const s of w) if (s === sig) count++;
    let cycle = false;
    for (let p = 2; p <= 5 && !cycle && 2 * p <= n; p++) {
      cycle = true;
      for (let i = n - 2 * p; i < n - p; i++) if (w[i] !== w[i + p]) cycle = false;
    }
    return run >= 3 || count >= 3 || cycle;
  }
}

/** The seed-style MD5 pipeline for one session. */
export class Md5Baseline {
  private readonly window = new HexWindow();

  check(e: ToolEvent): boolean {
    const args = typeof e.args === 'string' ? safeParse(e.args) : e.args;
    const sig = createHash('md5').update(`${e.tool}:${sortedJson(args)}`).digest('hex');
    return this.window.check(sig);
  }
}

/** JSON.stringify + SHA-256 for one session. */
export class Sha256Baseline {
  private readonly window = new HexWindow();

  check(e: ToolEvent): boolean {
    const text = typeof e.args === 'string' ? e.args : JSON.stringify(e.args);
    const sig = createHash('sha256').update(`${e.tool}:${text}`).digest('hex');
    return this.window.check(sig);
  }
}

function safeParse(s: string): unknown {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return s;
  }
}
