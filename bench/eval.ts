/**
 * `npm run eval`: detection quality of the default policy (or `--preset` / `--config`) on the real agent
 * traces in `../shared/data/traces`, per source and overall. Skips with a message when they are absent.
 *
 *   npm run eval                          the table
 *   npm run eval -- --json                the same figures as JSON
 *   npm run eval -- --list false-alarms   submitted sessions that reached break (to read with loopwatch explain)
 *   npm run eval -- --list misses         step_limit sessions with no verdict
 *   npm run eval -- --engine reference    with the TypeScript reference engine (same verdicts, slower)
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { detectionOptions } from '../src/cli/detection-options.js';
import { type EvalRow, evaluateTraces } from '../src/eval/trace-eval.js';
import { type TwoPhaseRow, evaluateTwoPhase } from '../src/eval/two-phase-eval.js';
import { defaultTraceDir } from '../src/eval/trace-dir.js';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    preset: { type: 'string' },
    config: { type: 'string' },
    workers: { type: 'string', default: '0' },
    list: { type: 'string' },
    engine: { type: 'string', default: 'wasm' },
  },
});

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = defaultTraceDir(root);
if (dir === null) {
  console.log(`npm run eval: skipped, the traces are not here (looked for ${resolve(root, '..', 'shared', 'data', 'traces')}/events.jsonl.gz and sessions.jsonl)`);
  process.exit(0);
}

const engine: 'wasm' | 'reference' = values.engine === 'reference' ? 'reference' : 'wasm';
const detection = { ...detectionOptions(values.preset, values.config), engine };
const result = await evaluateTraces(dir, detection, Number(values.workers));
const twoPhase = await evaluateTwoPhase(dir, detection);
for (const i of result.issues) console.error(`${i.file}:${i.line}: skipped (${i.code}): ${i.message}`);

const pct = (x: number | null): string => (x === null ? '-' : `${(100 * x).toFixed(1)}%`);
const cell = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));

if (values.list !== undefined) {
  const pick = values.list === 'false-alarms' ? (s: (typeof result.sessions)[number]) => s.exitStatus === 'submitted' && s.tally.reached('break') : (s: (typeof result.sessions)[number]) => s.exitStatus === 'step_limit' && !s.tally.reached('warn');
  for (const s of result.sessions.filter(pick)) {
    const f = s.tally.first;
    console.log(`${s.session}\t${s.tally.calls} calls\t${f === null ? '-' : `${f.kind} at #${f.index} (loop from #${f.loopStart})`}`);
  }
} else if (values.json === true) {
  console.log(JSON.stringify({ rows: result.rows, overall: result.overall, events: result.events, skipped: result.issues.length, twoPhase: { rows: twoPhase.rows, overall: twoPhase.overall } }, null, 2));
} else {
  const head = `${cell('source', 40)} ${'sessions'.padStart(8)} ${'step_limit'.padStart(10)} ${'≥warn'.padStart(7)} ${'break'.padStart(7)} ${'submitted'.padStart(9)} ${'break'.padStart(7)} ${'1st brk'.padStart(7)} ${'saved/limit calls'.padStart(17)}`;
  const line = (r: EvalRow): string =>
    `${cell(r.source, 40)} ${String(r.sessions).padStart(8)} ${String(r.stepLimit).padStart(10)} ${pct(r.stepLimitWarned).padStart(7)} ${pct(r.stepLimitBroken).padStart(7)} ${String(r.submitted).padStart(9)} ${pct(r.submittedBroken).padStart(7)} ${(r.medianFirstBreak === null ? '-' : `#${r.medianFirstBreak}`).padStart(7)} ${`${r.savedCalls}/${r.limitCalls}`.padStart(17)}`;
  console.log(`${result.events} calls, ${result.overall.sessions} sessions, scanned in ${(result.millis / 1000).toFixed(1)} s, ${((result.millis * 1000) / Math.max(1, result.events)).toFixed(1)} µs per call with reading (${engine} engine, ${values.preset ?? 'default'} policy${values.config === undefined ? '' : `, ${values.config}`})`);
  console.log(head);
  console.log('-'.repeat(head.length));
  for (const r of result.rows) console.log(line(r));
  console.log('-'.repeat(head.length));
  console.log(line(result.overall));
  console.log('\n≥warn / break: share of step_limit runs flagged; submitted break: false alarms; 1st brk: median call index of the first break;');
  console.log('saved/limit calls: calls after the first break in runs that ended on a step, cost or context limit, of all their calls.');
  console.log('Targets: step_limit ≥warn ≥ 80%; submitted break ≤ 5%.');
  // the same runs as a live host sees them: each call proposed before it runs, recorded after
  const head2 = `${cell('two-phase (propose, then record)', 40)} ${'sessions'.padStart(8)} ${'step_limit'.padStart(10)} ${'≥warn'.padStart(7)} ${'break'.padStart(7)} ${'submitted'.padStart(9)} ${'≥warn'.padStart(7)} ${'break'.padStart(7)} ${'saved/limit calls'.padStart(17)}`;
  const line2 = (r: TwoPhaseRow): string =>
    `${cell(r.source, 40)} ${String(r.sessions).padStart(8)} ${String(r.stepLimit).padStart(10)} ${pct(r.stepLimitWarned).padStart(7)} ${pct(r.stepLimitBroken).padStart(7)} ${String(r.submitted).padStart(9)} ${pct(r.submittedWarned).padStart(7)} ${pct(r.submittedBroken).padStart(7)} ${`${r.savedCalls}/${r.limitCalls}`.padStart(17)}`;
  console.log(`\n${twoPhase.calls} calls replayed in two-phase order in ${(twoPhase.millis / 1000).toFixed(1)} s`);
  console.log(head2);
  console.log('-'.repeat(head2.length));
  for (const r of twoPhase.rows) console.log(line2(r));
  console.log('-'.repeat(head2.length));
  console.log(line2(twoPhase.overall));
  console.log('\n≥warn: a message shown to the model (before or after a call); break: a call blocked before it ran (the replay of that run ends there).');
}
