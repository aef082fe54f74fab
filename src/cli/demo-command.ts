/**
 * `loopwatch demo`: the main job on a fresh machine. Generates the synthetic fleet (fixed seed; coding and
 * customer-service agents, loops of every kind injected, clean sessions full of legitimate repetition),
 * scans it with the worker pool exactly as `loopwatch scan` would, prints the scan report, then precision
 * and recall per loop kind against the injected truth.
 */
import { iterateFleet } from '../demo/fleet/fleet.js';
import { formatFleetScore } from '../demo/fleet/format.js';
import type { ScanVerdict } from '../demo/fleet/scan.js';
import { scoreFleet } from '../demo/fleet/score.js';
import { DEFAULT_SEED, DEFAULT_SESSIONS, type SessionTruth } from '../demo/fleet/truth.js';
import type { TraceItem } from '../formats/trace-record.js';
import { availableParallelism } from 'node:os';
import { type CommandIo, DEFAULT_BATCH, DEFAULT_MAX_SESSIONS, MAX_WORKERS, type ScanSettings, scanItems } from './scan-command.js';
import { integerFlag, parseFlags, stringOf } from './flags.js';
import { defaultCheckerThreads } from './scan/session-checker.js';

/** Where the demo says its calls come from. */
const DEMO_FILE = '<demo fleet>';

/** The fleet as trace items, a session at a time (one batch each), keeping each session's truth for the score. */
async function* fleetItems(sessions: number, seed: number, truth: SessionTruth[]): AsyncGenerator<TraceItem[]> {
  for (const s of iterateFleet({ sessions, seed })) {
    const { events, ...t } = s;
    truth.push(t);
    const items: TraceItem[] = [];
    for (let i = 0; i < events.length; i++) {
      const event = events[i] as (typeof events)[number];
      // the generator says of every call whether it failed: known when it did, absent when it did not
      items.push({ kind: 'call', session: s.session, event, errorInfo: event.error === undefined ? 'absent' : 'known', file: DEMO_FILE, line: i + 1 });
    }
    items.push({ kind: 'end', session: s.session, file: DEMO_FILE });
    yield items;
  }
}

/** `loopwatch demo`: resolves to the exit code (0 unless the scan could not run). */
export async function demoCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const v = parseFlags(
    args,
    { sessions: { type: 'string' }, seed: { type: 'string' }, workers: { type: 'string' }, preset: { type: 'string' }, config: { type: 'string' }, json: { type: 'boolean' } },
    false,
  ).values;
  const sessions = integerFlag('--sessions', stringOf(v, 'sessions'), DEFAULT_SESSIONS, 1, 1_000_000);
  const seed = integerFlag('--seed', stringOf(v, 'seed'), DEFAULT_SEED, 0, 2 ** 32 - 1);
  const settings: ScanSettings = {
    paths: [],
    format: undefined,
    workers: integerFlag('--workers', stringOf(v, 'workers'), defaultCheckerThreads(availableParallelism()), 0, MAX_WORKERS),
    workersGiven: v.workers !== undefined,
    preset: stringOf(v, 'preset'),
    config: stringOf(v, 'config'),
    minAction: 'warn',
    failOn: 'never',
    output: v.json === true ? 'none' : 'summary',
    maxSessions: DEFAULT_MAX_SESSIONS,
    batchSize: DEFAULT_BATCH,
    progress: true,
  };
  const truth: SessionTruth[] = [];
  const verdicts = new Map<string, ScanVerdict[]>();
  if (v.json !== true) io.stdout.write(`loopwatch demo: ${sessions.toLocaleString('en-US')} synthetic session${sessions === 1 ? '' : 's'} (seed ${seed}), scanned with ${settings.workers <= 1 ? 'this thread' : `this thread and ${settings.workers - 1} worker thread${settings.workers === 2 ? '' : 's'}`}\n\n`);
  const outcome = await scanItems(fleetItems(sessions, seed, truth), settings, io, {
    onVerdict: (verdict, call, index) => {
      let list = verdicts.get(call.session);
      if (list === undefined) verdicts.set(call.session, (list = []));
      list.push({ index, kind: verdict.kind, action: verdict.action });
    },
  });
  const score = scoreFleet(truth, verdicts);
  if (v.json === true) {
    io.stdout.write(JSON.stringify({ summary: outcome.summary, score }, null, 2) + '\n');
  } else {
    io.stdout.write(`\nagainst the injected truth\n${formatFleetScore(score)}\n`);
  }
  return outcome.exitCode === 2 ? 2 : 0;
}
