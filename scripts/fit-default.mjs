#!/usr/bin/env node
// Fits the shipped default the way `loopwatch calibrate` fits a user's policy, on the public traces
// (../shared/data/traces) plus the coding-agent development set (devset/, git-ignored), whichever are
// present (an absent one is skipped and said so), and writes the fit as the default preset's data:
//
//   npm run build && node scripts/fit-default.mjs            # fit, write, print the figures
//   node scripts/fit-default.mjs --check                      # fit and print, write nothing
//   node scripts/fit-default.mjs --check --config-out F DIR... # on other folders, the fitted config to F
//
// It writes src/options/fitted-default.ts (FITTED_DEFAULT, via scripts/preset-from-config.mjs; rebuild to
// use it), then evaluates the fitted config beside the current default on each set (`loopwatch eval DIR
// --json`, the fitted one through `--config`) and prints the targets of issue 27 for both: two-phase
// finished runs broken (<= 1.5%), step-limit runs broken (as high as possible), and on the devset ordinary
// sessions broken (none) and warned (<= 15%). The held-out figures of the fit, resolved runs broken among
// them, are calibrate's own report (folds by task group, never the training fit).
//
// Budgets: fitted for the two-phase replay, 1% of finished runs broken (by their Wilson centre, a margin
// for runs not seen) and the starting point's own share warned there, as `loopwatch calibrate` defaults
// them; and, unlike calibrate's default, the one-phase replay held to the starting point's own shares
// (--hold-other): the shipped default is also what `scan` and `check()` run, one-phase, and a fit that
// spends the two-phase budget there broke 2-3 of the devset's ordinary sessions; and every move that helps
// taken (--change-cost 0): held to the hand default's own shares, the fit's moves break no more step-limit
// runs and earn their place by the ties after them (fewer finished runs warned: the devset's warnings),
// which a cost per moved parameter refuses (with calibrate's default cost of 1 the fit stays at hand-tuned,
// held out the same 47.5% at 0.4%, devset warned 13.1% against 12.7%); 5 folds, seed 1. What it writes is the
// default everywhere once built (the library, the hook, serve, scan, eval: src/options/shipped-default.ts
// lays it over the hand-tuned values), so committing it is a decision made on these figures (see
// docs/evaluation.md), not by this script.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'src', 'bin', 'loopwatch.js');
if (!existsSync(cli)) {
  process.stderr.write('fit-default: dist/ is not built: run npm run build first\n');
  process.exit(2);
}
const argv = process.argv.slice(2);
const check = argv.includes('--check');
const at = argv.indexOf('--config-out');
const configOut = at < 0 ? undefined : argv[at + 1];
const dirs = argv.filter((a, i) => !a.startsWith('--') && (at < 0 || i !== at + 1));
const sets = (
  dirs.length > 0
    ? dirs.map((dir) => ({ name: dir.slice(-14), dir }))
    : [
        { name: 'public traces', dir: join('..', 'shared', 'data', 'traces') },
        { name: 'devset', dir: 'devset' },
      ]
).filter((s) => {
  const here = existsSync(join(root, s.dir, 'sessions.jsonl')) || existsSync(join(s.dir, 'sessions.jsonl'));
  if (!here) process.stderr.write(`fit-default: ${s.name} (${s.dir}) is absent: skipped\n`);
  return here;
});
if (sets.length === 0) {
  process.stderr.write('fit-default: no labelled set to fit on\n');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'loopwatch-fit-default-'));
const config = join(work, 'fitted-default.json');
// run from the repository's root, so the config records the command with the folders as given
const run = (args) => execFileSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const started = Date.now();
  // without -o: the config on standard output, the report on standard error
  // from the hand-tuned values (the built-in ones), so a rerun does not start from its own last output
  const calibrateArgs = ['calibrate', ...sets.map((s) => s.dir), '--preset', 'hand-tuned', '--max-false-alarms', '1%', '--folds', '5', '--seed', '1', '--hold-other', '--change-cost', '0', '--allow-skipped'];
  process.stdout.write(`$ loopwatch ${calibrateArgs.join(' ')}\n`);
  const fitted = spawnSync(process.execPath, [cli, ...calibrateArgs], { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  process.stdout.write(fitted.stderr);
  if (fitted.status !== 0) throw new Error(`loopwatch calibrate exited ${fitted.status}`);
  writeFileSync(config, fitted.stdout);
  process.stdout.write(`fit: ${((Date.now() - started) / 1000).toFixed(0)} s\n\n`);
  if (configOut !== undefined) writeFileSync(configOut, readFileSync(config));

  const pct = (s) => (s === undefined || s.of === 0 ? '-' : `${((100 * s.count) / s.of).toFixed(1)}% (${s.count}/${s.of})`);
  process.stdout.write('two-phase, replayed on each whole set (not held out: the held-out figures are above)\n');
  process.stdout.write(`${'set'.padEnd(14)} ${'policy'.padEnd(8)} ${'step_limit broken'.padEnd(20)} ${'finished broken'.padEnd(18)} ${'ordinary broken'.padEnd(18)} ordinary warned\n`);
  for (const s of sets) {
    for (const [policy, extra] of [['hand', ['--preset', 'hand-tuned']], ['fitted', ['--config', config]]]) {
      const r = JSON.parse(run(['eval', s.dir, '--json', '--allow-skipped', ...extra])).twoPhase.overall;
      process.stdout.write(
        `${s.name.padEnd(14)} ${policy.padEnd(8)} ${pct(r.stepLimitBroken).padEnd(20)} ${pct(r.submittedBroken).padEnd(18)} ${pct(r.interactiveBroken).padEnd(18)} ${pct(r.interactiveWarned)}\n`,
      );
    }
  }
  if (!check) {
    const out = join(root, 'src', 'options', 'fitted-default.ts');
    execFileSync(process.execPath, [join(root, 'scripts', 'preset-from-config.mjs'), config, out, 'FITTED_DEFAULT'], { stdio: 'inherit' });
    // the generated header names the temporary file: name the command instead
    const text = readFileSync(out, 'utf8').replace(/^\/\/ Generated by scripts\/preset-from-config\.mjs from [^\n]*/, '// Generated by scripts/fit-default.mjs (through scripts/preset-from-config.mjs)');
    writeFileSync(out, text);
    process.stdout.write(`\nwritten: src/options/fitted-default.ts (npm run build to use it)\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
