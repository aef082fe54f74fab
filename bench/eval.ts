/**
 * `npm run eval`: detection quality of the default policy (or `--preset` / `--config`) on labelled runs,
 * per agent family and overall, one-phase and two-phase: `loopwatch eval` on the real agent traces in
 * `../shared/data/traces`, or on `--traces DIR`. Without `--traces` it skips with a message (exit 0) when
 * the traces are absent.
 *
 *   npm run eval                          the tables and the lists
 *   npm run eval -- --traces DIR          any folder of labelled runs (see loopwatch eval --help)
 *   npm run eval -- --json                the same figures as JSON
 *   npm run eval -- --list false-alarms   submitted runs that reached break (to read with loopwatch explain)
 *   npm run eval -- --list misses         step_limit runs never warned
 *   npm run eval -- --engine reference    with the TypeScript reference engine (same verdicts, slower)
 *
 * Every other flag of `loopwatch eval` (--family, --by, --labels, --workers) works here too.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processContext } from '../src/cli/command-context.js';
import { parseEvalArgs, runEval } from '../src/cli/eval-command.js';
import { UsageError } from '../src/cli/usage-error.js';
import { defaultTraceDir } from '../src/eval/trace-dir.js';

const args = process.argv.slice(2);
const take = (flag: string): string | undefined => {
  const at = args.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  if (at < 0) return undefined;
  const [a] = args.splice(at, 1) as [string];
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : args.splice(at, 1)[0];
};
const traces = take('--traces');
const engine = take('--engine') ?? 'wasm';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = traces ?? defaultTraceDir(root);
if (dir === null) {
  console.log(`npm run eval: skipped, the traces are not here (looked for ${resolve(root, '..', 'shared', 'data', 'traces')}/events.jsonl.gz and sessions.jsonl; --traces DIR for another folder)`);
  process.exit(0);
}
try {
  if (engine !== 'wasm' && engine !== 'reference') throw new UsageError(`--engine must be wasm or reference, received "${engine}"`);
  const settings = { ...parseEvalArgs([...args, dir]), engine: engine as 'wasm' | 'reference' };
  process.exitCode = await runEval(settings, { ...processContext(), stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
} catch (e) {
  if (!(e instanceof UsageError)) throw e;
  console.error(`npm run eval: ${e.message}`);
  process.exitCode = 2;
}
