/**
 * `--scope hook`: the wall time of one `loopwatch hook` process, as an agent pays it on every tool call:
 * process start, loading the code, reading the session's state, deciding, writing the state, exit. Each
 * run is a child process started and waited for with spawnSync (what an agent's hook runner does), on a
 * session that already holds 200 calls; runs alternate one call's before-hook and after-hook.
 *
 * Variants, measured in turn within each round so that a busy machine slows them alike:
 * - `node -e 0`: Node's own start and exit, the floor no hook can go under;
 * - the installed command (dist/hook/hook-main.cjs, the bundle with V8's code cache);
 * - the same without the code cache (LOOPWATCH_HOOK_CODE_CACHE=off);
 * - `loopwatch hook` through the CLI (dist/src/cli/main.js: the ES module loader and the dispatch first);
 * - the hook command from tsc's modules one by one (no bundle, no cache).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SessionFile } from '../src/hooks/session-file.js';
import { installedLineEnvironment } from '../src/hooks/start-environment.js';
import { LoopDetector } from '../src/session/loop-detector.js';
import { quantile } from './service-figures.js';

/** Inside one fresh process (medians over runs): WebAssembly compile, the first check, a warm check. */
export interface HookPhases {
  runs: number;
  wasmCompileMs: number;
  firstCheckMs: number;
  warmCheckMs: number;
}

/** One variant's figures. */
export interface HookFigure {
  variant: string;
  runs: number;
  p50Ms: number;
  p90Ms: number;
  /** 1-minute load average when the scope started and ended (a busy machine inflates every figure). */
  loadStart: number;
  loadEnd: number;
}

const HOOK_MAIN = fileURLToPath(new URL('../hook/hook-main.cjs', import.meta.url));
const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const MODULES = fileURLToPath(new URL('./hook-modules-entry.js', import.meta.url));
const PHASES = fileURLToPath(new URL('./hook-phases-entry.js', import.meta.url));
const HISTORY = 200;

function payload(event: 'PreToolUse' | 'PostToolUse', i: number): string {
  const p: Record<string, unknown> = {
    session_id: 'bench-session',
    transcript_path: '/tmp/bench.jsonl',
    cwd: '/repo',
    permission_mode: 'default',
    hook_event_name: event,
    tool_name: i % 3 === 0 ? 'Bash' : 'Read',
    tool_input: i % 3 === 0 ? { command: `npm test -- part${i % 17}` } : { file_path: `/repo/src/file${i % 41}.ts` },
    tool_use_id: `toolu_${i}`,
  };
  if (event === 'PostToolUse') p.tool_response = { stdout: `output of call ${i % 23}`, stderr: '', interrupted: false };
  return JSON.stringify(p);
}

/** Writes a session of HISTORY calls into `dir`, as the hooks would have (made in this process: faster). */
function seedSession(dir: string): void {
  const d = new LoopDetector({}, 'bench-session');
  for (let i = 0; i < HISTORY; i++) {
    const pre = JSON.parse(payload('PreToolUse', i)) as { tool_name: string; tool_input: unknown; tool_use_id: string };
    const post = JSON.parse(payload('PostToolUse', i)) as { tool_response: unknown };
    d.propose({ tool: pre.tool_name, args: pre.tool_input, id: pre.tool_use_id });
    d.record({ tool: pre.tool_name, args: pre.tool_input, id: pre.tool_use_id, result: post.tool_response });
  }
  const f = new SessionFile(dir, 'claude-code', 'bench-session');
  f.ensureDir();
  f.write(d.snapshot());
  d.dispose();
}

function run(args: readonly string[], input: string, env: NodeJS.ProcessEnv): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { input, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const ms = performance.now() - t;
  if (r.status !== 0 || r.stderr.length !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr.toString()}`);
  return ms;
}

/** Runs the variants `rounds` times each, alternating; the figures. */
export function hookFigures(rounds = Number(process.env.LOOPWATCH_BENCH_HOOK_ROUNDS ?? 60)): HookFigure[] {
  const loadStart = os.loadavg()[0] as number;
  const dirs: string[] = [];
  // every variant (the floor too) with the environment the installed line leaves: without it, a machine's
  // NODE_EXTRA_CA_CERTS or NODE_OPTIONS would be parsed on each start and draw the hook's notice (stderr)
  const env = installedLineEnvironment(process.env);
  const variants: { name: string; args: (dir: string) => string[]; env: NodeJS.ProcessEnv }[] = [
    { name: 'node -e 0 (Node alone)', args: () => ['-e', '0'], env },
    { name: 'installed hook (hook-main.cjs: bundle + code cache)', args: (d) => [HOOK_MAIN, '--agent', 'claude-code', '--state-dir', d], env },
    { name: 'installed hook, code cache off', args: (d) => [HOOK_MAIN, '--agent', 'claude-code', '--state-dir', d], env: { ...env, LOOPWATCH_HOOK_CODE_CACHE: 'off' } },
    { name: 'loopwatch hook (the CLI: main.js, then the bundle + cache)', args: (d) => [CLI, 'hook', '--agent', 'claude-code', '--state-dir', d], env },
    { name: 'hook from the modules one by one (no bundle, no cache)', args: (d) => [MODULES, '--agent', 'claude-code', '--state-dir', d], env },
  ];
  const state = variants.map((v) => {
    const dir = mkdtempSync(join(os.tmpdir(), 'loopwatch-bench-hook-'));
    dirs.push(dir);
    seedSession(dir);
    run(v.args(dir), payload('PreToolUse', HISTORY - 1), v.env); // not measured: writes the code cache
    return { dir, times: [] as number[] };
  });
  for (let r = 0; r < rounds; r++) {
    variants.forEach((v, k) => {
      const s = state[k] as { dir: string; times: number[] };
      const i = HISTORY + r;
      s.times.push(run(v.args(s.dir), payload(r % 2 === 0 ? 'PreToolUse' : 'PostToolUse', r % 2 === 0 ? i : i - 1), v.env));
    });
  }
  const loadEnd = os.loadavg()[0] as number;
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  return variants.map((v, k) => {
    const times = (state[k] as { times: number[] }).times;
    return { variant: v.name, runs: times.length, p50Ms: quantile(times, 0.5), p90Ms: quantile(times, 0.9), loadStart, loadEnd };
  });
}

/** The phases inside a fresh process, `runs` processes; medians. */
export function hookPhases(runs = 20): HookPhases {
  const dir = mkdtempSync(join(os.tmpdir(), 'loopwatch-bench-hook-'));
  seedSession(dir);
  const all = Array.from({ length: runs }, () => {
    const r = spawnSync(process.execPath, [PHASES, dir], { encoding: 'utf8', env: installedLineEnvironment(process.env) });
    if (r.status !== 0) throw new Error(`hook-phases-entry exited ${r.status}: ${r.stderr}`);
    return JSON.parse(r.stdout) as Omit<HookPhases, 'runs'>;
  });
  rmSync(dir, { recursive: true, force: true });
  const med = (k: keyof Omit<HookPhases, 'runs'>): number => quantile(all.map((x) => x[k]), 0.5);
  return { runs, wasmCompileMs: med('wasmCompileMs'), firstCheckMs: med('firstCheckMs'), warmCheckMs: med('warmCheckMs') };
}

/** The figures as a Markdown table. */
export function hookTable(figures: readonly HookFigure[], phases: readonly HookPhases[]): string {
  if (figures.length === 0) return '';
  const f0 = figures[0] as HookFigure;
  const lines = [
    `\n## hook: one \`loopwatch hook\` process per tool call\nwall time of one process (spawnSync: start, load, read the state, decide, write it, exit), ${f0.runs} runs per variant alternating before- and after-hooks on a session of ${HISTORY} calls, variants in turn; 1-minute load average ${f0.loadStart.toFixed(1)} at the start, ${f0.loadEnd.toFixed(1)} at the end`,
    '| how | p50 | p90 |',
    '|---|---|---|',
  ];
  for (const f of figures) lines.push(`| ${f.variant} | ${f.p50Ms.toFixed(1)} ms | ${f.p90Ms.toFixed(1)} ms |`);
  for (const p of phases) {
    lines.push(
      `\ninside one fresh process (medians of ${p.runs} processes, no code cache): compiling the WebAssembly module ${p.wasmCompileMs.toFixed(2)} ms; ` +
        `the first check (restore the ${HISTORY}-call session, propose, snapshot) ${p.firstCheckMs.toFixed(2)} ms; the same again, its functions compiled, ${p.warmCheckMs.toFixed(2)} ms`,
    );
  }
  return lines.join('\n');
}
