/**
 * Resident memory per session: what the memory targets measure (RSS after 100 calls of ~500 B
 * args). Each point is a fresh child process (session-rss-worker.js); the figure is the marginal growth,
 * (RSS growth with SMALL + EXTRA sessions - RSS growth with SMALL) / EXTRA, so what a process pays once
 * (the young generation, the module's work areas, code) cancels out.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** One detector set's resident memory per session. */
export interface SessionRss {
  readonly detectors: 'core' | 'all';
  /** Bytes of RSS per session, marginal over `extra` sessions. */
  readonly bytesPerSession: number;
  readonly small: number;
  readonly extra: number;
}

const SMALL = 5_000;
const EXTRA = 20_000;

function growth(which: string, sessions: number, stream: 'fixture' | 'real'): number {
  const out = execFileSync(process.execPath, ['--expose-gc', fileURLToPath(new URL('./session-rss-worker.js', import.meta.url)), which, String(sessions), stream], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return (JSON.parse(out) as { rssGrowth: number }).rssGrowth;
}

/**
 * Measures core (exact, frequency, cycle, result repeat) and every default detector, on the fixture's
 * calls or (`real`) on the traces' (session-rss-worker.ts).
 */
export function sessionRss(stream: 'fixture' | 'real' = 'fixture'): SessionRss[] {
  return (['core', 'all'] as const).map((detectors) => {
    const a = growth(detectors, SMALL, stream);
    const b = growth(detectors, SMALL + EXTRA, stream);
    return { detectors, bytesPerSession: (b - a) / EXTRA, small: SMALL, extra: EXTRA };
  });
}
