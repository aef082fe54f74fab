/**
 * Folders of labelled runs for the calibrate tests, written by the tests themselves: synthetic runs (loops
 * of every kind the detectors see, and legitimate repetitive work), and a sample of the real traces (every
 * k-th session of `../shared/data/traces`, copied into a temporary folder the test removes).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { traceDir, traceEventsText } from './traces.js';
import { seededRandom } from '../../src/fingerprint/seeded-random.js';
import type { LoopDetectorOptions } from '../../src/index.js';

/** One synthetic call line of the events format. */
type Line = Record<string, unknown>;


/** The calls of one synthetic run of `shape`, variant `v`. */
function shapeCalls(shape: number, v: number, r: () => number): Line[] {
  const out: Line[] = [];
  const n = 6 + Math.floor(r() * 10);
  const read = (i: number): Line => ({ tool: 'read_file', args: { path: `src/m${v}_${i}.py` }, result: `def f${i}(): return ${i * v}` });
  switch (shape) {
    case 0: // the same failing command again and again
      for (let i = 0; i < n; i++) out.push({ tool: 'bash', args: { command: `make test${v}` }, error: 'make: *** [test] Error 2' });
      break;
    case 1: // reads of different files (legitimate)
      for (let i = 0; i < n; i++) out.push(read(i));
      break;
    case 2: // a cycle of two calls with the same answers
      for (let i = 0; i < n; i++) out.push(i % 2 === 0 ? { tool: 'open', args: { path: `a${v}.txt` }, result: 'A' } : { tool: 'close', args: { path: `a${v}.txt` }, result: 'ok' });
      break;
    case 3: // edit a new file, re-run the same failing test (interleaved)
      for (let i = 0; i < n; i++) {
        out.push({ tool: 'edit', args: { path: `src/e${v}_${i}.py`, text: `fix ${i}` }, result: 'ok' });
        out.push({ tool: 'bash', args: { command: 'pytest -x' }, error: `FAILED test_core.py::test_${v} - AssertionError` });
      }
      break;
    case 4: // polling a job that is still running, then done
      for (let i = 0; i < n; i++) out.push({ tool: 'job_status', args: { id: `j${v}` }, result: i < n - 1 ? '{"state": "running"}' : '{"state": "done"}' });
      break;
    case 5: // paraphrased searches that find nothing
      for (let i = 0; i < n; i++) out.push({ tool: 'search', args: { query: `refund policy for order ${v} ${['please', 'now', 'details', 'rules'][i % 4]}` }, result: 'No results found' });
      break;
    case 6: // similar arguments failing with one error class
      for (let i = 0; i < n; i++) out.push({ tool: 'get_user', args: { id: `user_${v}${i % 3}` }, error: `User user_${v}${i % 3} not found` });
      break;
    case 7: // reads, then a search repeated between new reads
      for (let i = 0; i < n; i++) {
        out.push(read(i));
        out.push({ tool: 'grep', args: { pattern: `TODO${v}` }, result: 'src/a.py:3: TODO' });
      }
      break;
    default: // a polled page whose answer changes
      for (let i = 0; i < n; i++) out.push({ tool: 'status', args: { id: v }, result: `progress ${i * 10}%` });
  }
  return out;
}

/** Exit statuses by shape: the loops ran into their step limit, the rest finished. */
const STATUS = ['step_limit', 'submitted', 'step_limit', 'submitted', 'submitted', 'step_limit', 'step_limit', 'submitted', 'submitted'];

/** Writes `runs` synthetic labelled runs (events.jsonl, sessions.jsonl) into a new temporary folder. */
export function writeSyntheticRuns(runs: number, seed = 7): string {
  const dir = mkdtempSync(join(tmpdir(), 'loopwatch-calibrate-'));
  const r = seededRandom(seed);
  const lines: Line[] = [];
  const labels: Line[] = [];
  for (let k = 0; k < runs; k++) {
    const shape = k % STATUS.length;
    const session = `run-${k}`;
    const calls = shapeCalls(shape, k, r);
    calls.forEach((c, step) => lines.push({ session, step, ...c }));
    // runs of one task are grouped (pairs of runs), and some labels say whether the task was solved
    labels.push({ session, exit_status: STATUS[shape], agent: k % 2 === 0 ? 'mini-swe-agent 1.15.0' : 'tau2-bench llm_agent', task_group: `task-${Math.floor(k / 2)}`, ...(STATUS[shape] === 'submitted' ? { resolved: k % 3 !== 0 } : {}) });
  }
  writeFileSync(join(dir, 'events.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  writeFileSync(join(dir, 'sessions.jsonl'), `${labels.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return dir;
}

/**
 * Writes every `every`-th labelled session of the real traces (their calls and labels) into a new
 * temporary folder; null when the traces are absent.
 */
export function writeTraceSample(every: number, offset = 0): string | null {
  if (traceDir === null) return null;
  const labels = readFileSync(join(traceDir, 'sessions.jsonl'), 'utf8').split('\n').filter((l) => l.trim() !== '');
  const kept = labels.filter((_, i) => i % every === offset);
  const sessions = new Set(kept.map((l) => (JSON.parse(l) as { session: string }).session));
  const events = traceEventsText().split('\n');
  const dir = mkdtempSync(join(tmpdir(), 'loopwatch-calibrate-traces-'));
  const mine = events.filter((l) => l.trim() !== '' && sessions.has((JSON.parse(l) as { session: string }).session));
  writeFileSync(join(dir, 'events.jsonl'), `${mine.join('\n')}\n`);
  writeFileSync(join(dir, 'sessions.jsonl'), `${kept.join('\n')}\n`);
  return dir;
}

/**
 * The calibrate point (calibrate-fidelity's devset case, seed 7) under which devset session 98743092's
 * batched scan broke a call later than the same calls checked one by one (a fresh start's reading of the
 * module's rings, which a batch had moved on).
 */
export const PROMPT_LOOP_POINT: LoopDetectorOptions = {
  policy: { ladder: ['warn', 'warn', 'break'], minConfidence: 0.5, agreementBonus: 0.1, noProgressStep: 2, interleavedStep: 0.5, cooldown: 0, kindWeights: { exact_repeat: 0.8, frequency: 1, cycle: 1.5, semantic: 1, similar_args: 0.8, result_repeat: 1, dead_end: 0.6, state_repeat: 0, chanting: 1 } },
  detectors: { exactRepeat: { threshold: 2 }, frequency: { threshold: 4 }, semantic: { minSimilar: 2 }, similarArgs: { threshold: 2 }, deadEnd: { threshold: 3 }, stateRepeat: { threshold: 3 } },
};
