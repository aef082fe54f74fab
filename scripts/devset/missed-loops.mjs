/**
 * Candidate genuine loops in a set of real sessions, each with loopwatch's verdicts over its calls: the
 * shapes a person would call "stuck" that a detector might miss. A measuring tool of the sets, not part of
 * loopwatch; its candidates are for reading, not a label.
 *
 *   node scripts/devset/missed-loops.mjs SET_DIR [--all] [--scan FILE]
 *
 * Shapes, on the calls as the reader reads them (src/formats), numbered from 1 as eval numbers them:
 * - `same-failure`: >= 4 failing calls with the same error (first line, digits masked), at most 2 other
 *   calls between two of them (edits, reads).
 * - `same-output`: one call (tool and args) run >= 3 times with the very same non-empty output, at most 6
 *   calls between two of them.
 * - `poll`: >= 5 calls in a row of one command (digits masked) whose outputs differ only in their digits
 *   (a rising counter, a clock, a pid), at most 1 other call between two of them.
 * - `losing-streak`: >= 5 calls in a row, each failing with something to say (not a person's refusal, not
 *   an exit status alone).
 * - `stale-run`: one run command (tool and args) failing >= 4 times with an edit between two of them, the same
 *   error each time (an edit/run/fail cycle making no progress).
 * Each shape needs its calls spread over >= 3 model turns (calls of one turn run side by side: a batch).
 * A candidate is `missed` when loopwatch gave no warning (scan --jsonl, the default policy) from its first
 * call to 2 calls after its last; only those are listed unless --all.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { readInputs } = await import(pathToFileURL(join(root, 'dist', 'src', 'index.js')).href);
const { CALL, marksOf, marksReader } = await import(pathToFileURL(join(root, 'scripts', 'devset', 'session-marks.mjs')).href);
const marks = await marksReader(root);

const argv = process.argv.slice(2);
const dir = argv.find((a) => !a.startsWith('--') && argv[argv.indexOf(a) - 1] !== '--scan');
const all = argv.includes('--all');
const scanAt = argv.indexOf('--scan');
if (dir === undefined) {
  console.error('usage: missed-loops.mjs SET_DIR [--all] [--scan FILE]');
  process.exit(2);
}

/** A text's first 4,000 characters: nothing longer reaches a regex here. */
const cap = (s) => (s.length > 4000 ? s.slice(0, 4000) : s);
const text = (v) => (v === undefined || v === null ? '' : typeof v === 'string' ? cap(v) : v === true ? '' : cap(JSON.stringify(v)));
/** Digits masked, whitespace runs made one space. */
const mask = (s) => s.replace(/[0-9a-f]{7,}/g, 'H').replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
/** Lines a shell prints before every command's output (a profile's complaints), not the command's error. */
const NOISE = /shellenv\.sh: line \d+: \/bin\/ps: Operation not permitted|^Now using node v|^Determining projects to restore/;
/** An error's first non-empty line (past an `Exit code N` line), digits masked, cut at 120. */
const errorKey = (e, result) => {
  const lines = text(e === true ? result : e).split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/^exit code:? \d+$/i.test(l) && !NOISE.test(l));
  return mask(lines[0] ?? 'error').slice(0, 120);
};
/** A person's refusal or a call cancelled for a sibling's error: not the agent failing. */
const refused = (e) => /doesn't want to proceed|tool use was rejected|Permission for this tool use was denied|Sibling tool call errored|Cancelled: parallel tool call|Request interrupted by user/.test(text(e.error === true ? e.result : e.error).slice(0, 400));
const argsKey = (e) => `${e.tool} ${text(e.args)}`;
const isEdit = (e) => /edit|write|patch|replace|create/i.test(e.tool) || /apply_patch/.test(text(e.args).slice(0, 200));
const isRun = (e) => /bash|shell|exec|command|run/i.test(e.tool) && !isEdit(e);

const verdicts = new Map();
const scanLines = scanAt >= 0 ? readFileSync(argv[scanAt + 1], 'utf8') : execFileSync(process.execPath, [join(root, 'dist', 'src', 'bin', 'loopwatch.js'), 'scan', '--jsonl', dir], { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
for (const l of scanLines.split('\n')) {
  if (l === '') continue;
  const v = JSON.parse(l);
  if (!verdicts.has(v.session)) verdicts.set(v.session, []);
  verdicts.get(v.session).push(v);
}

const sessions = new Map();
for await (const it of readInputs([dir])) {
  if (it.kind !== 'call') continue;
  if (!sessions.has(it.session)) sessions.set(it.session, { file: it.file, events: [] });
  sessions.get(it.session).events.push(it.event);
}

/** Groups of indices, by key, chained while each next one is at most `gap` calls after the last. */
function chains(events, keyOf, gap) {
  const open = new Map();
  const done = [];
  events.forEach((e, i) => {
    const k = keyOf(e, i);
    if (k === null) return;
    const c = open.get(k);
    if (c !== undefined && i - c.at(-1) <= gap + 1) c.push(i);
    else {
      if (c !== undefined) done.push([k, c]);
      open.set(k, [i]);
    }
  });
  for (const [k, c] of open) done.push([k, c]);
  return done;
}

/** The model turns a group of calls spans: calls of one turn ran side by side (a batch), not one after another. */
const turns = (events, idx) => new Set(idx.map((i) => events[i].round ?? i)).size;

/** The calls before which a person typed a prompt that gives a fresh start (session-marks.mjs), by session. */
const freshOf = new Map();
const perFile = new Map();
for (const [session, { file }] of sessions) perFile.set(file, [...(perFile.get(file) ?? []), session]);
for (const [file, names] of perFile) {
  let perSession;
  try {
    perSession = marks(file);
  } catch {
    continue;
  }
  for (const session of names) {
    const m = marksOf(perSession, session, sessions.get(session).events.length, names.length);
    if (m.marks === undefined) continue;
    const fresh = new Set();
    let c = 0;
    for (const x of m.marks) if (x === CALL) c++; else if (x.fresh) fresh.add(c);
    freshOf.set(session, fresh);
  }
}
/** Prompts typed between a group's first and last call (a person in the loop), or '?' when not read. */
const promptsIn = (session, idx) => {
  const fresh = freshOf.get(session);
  if (fresh === undefined) return '?';
  let n = 0;
  for (const c of fresh) if (c > idx[0] && c <= idx.at(-1)) n++;
  return n;
};

const found = [];
for (const [session, { file, events }] of sessions) {
  const add = (shape, what, idx) => {
    if (turns(events, idx) >= 3) found.push({ session, file, shape, what, idx, turns: turns(events, idx) });
  };
  for (const [k, c] of chains(events, (e) => (e.error && !refused(e) ? `${e.tool}|${errorKey(e.error, e.result)}` : null), 2)) if (c.length >= 4) add('same-failure', k, c);
  for (const [k, c] of chains(events, (e) => {
    const out = text(e.result ?? e.error);
    return out.trim() === '' ? null : `${argsKey(e)}\u0000${out}`;
  }, 6)) if (c.length >= 3) add('same-output', k.split('\u0000')[0], c);
  for (const [k, c] of chains(events, (e) => (isRun(e) ? `${mask(argsKey(e))}\u0000${mask(text(e.result ?? e.error))}` : null), 1)) {
    const raw = new Set(c.map((i) => text(events[i].result ?? events[i].error)));
    if (c.length >= 5 && raw.size > 1) add('poll', k.split('\u0000')[0], c);
  }
  // losing-streak: calls in a row, every one failing with something to say (not refused, not silent)
  let streak = [];
  const loud = (e) => e.error && !refused(e) && text(e.error === true ? e.result : e.error).replace(/exit code:? \d+|\(no output\)|output: \(empty\)/gi, '').trim() !== '';
  events.forEach((e, i) => {
    if (loud(e)) streak.push(i);
    else {
      if (streak.length >= 5) add('losing-streak', `${streak.length} failures in a row: ${[...new Set(streak.map((j) => events[j].tool))].join(',')}`, streak);
      streak = [];
    }
  });
  if (streak.length >= 5) add('losing-streak', `${streak.length} failures in a row: ${[...new Set(streak.map((j) => events[j].tool))].join(',')}`, streak);
  // stale-run: the same failing run, the same error, with an edit between two of them
  const runs = new Map();
  events.forEach((e, i) => {
    if (!isRun(e)) return;
    const k = argsKey(e);
    if (!runs.has(k)) runs.set(k, []);
    runs.get(k).push(i);
  });
  for (const [k, idx] of runs) {
    let streak = [];
    const flush = () => {
      const edited = streak.some((i, j) => j > 0 && events.slice(streak[j - 1] + 1, i).some(isEdit));
      if (streak.length >= 4 && edited) add('stale-run', `${k.slice(0, 100)} | ${errorKey(events[streak[0]].error, events[streak[0]].result)}`, streak);
      streak = [];
    };
    for (const i of idx) {
      const e = events[i];
      if (!e.error) {
        flush();
        continue;
      }
      if (streak.length > 0 && errorKey(events[streak[0]].error, events[streak[0]].result) !== errorKey(e.error, e.result)) flush();
      streak.push(i);
    }
    flush();
  }
}

let missed = 0;
for (const f of found) {
  const lo = f.idx[0];
  const hi = f.idx.at(-1) + 2;
  const vs = (verdicts.get(f.session) ?? []).filter((v) => v.index >= lo && v.index <= hi);
  const before = (verdicts.get(f.session) ?? []).filter((v) => v.index < lo).length;
  const miss = vs.length === 0;
  if (miss) missed++;
  if (!miss && !all) continue;
  const calls = f.idx.map((i) => `#${i + 1}`).join(',');
  console.log(`${miss ? 'MISSED' : 'warned'} ${f.shape.padEnd(12)} ${f.session} x${f.idx.length} (${f.turns} turns, ${promptsIn(f.session, f.idx)} prompts) calls ${calls}`);
  console.log(`    ${f.what.replace(/\s+/g, ' ').slice(0, 220)}`);
  console.log(`    verdicts there: ${vs.length === 0 ? 'none' : [...new Set(vs.map((v) => `${v.kind}/${v.action} #${v.index + 1}`))].slice(0, 4).join(', ')}; before: ${before}  (${f.file})`);
}
console.log(`${dir}: ${sessions.size} sessions, ${found.length} candidates, ${missed} with no warning there`);
