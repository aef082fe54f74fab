#!/usr/bin/env node
/**
 * Rebuilds the development set of real coding-agent sessions (`devset/`, git-ignored, never committed)
 * from local mirrors of the public repositories it came from, and checks every file's sha256.
 *
 *   node scripts/devset/rebuild.mjs                  writes devset/ from /work/.mirror
 *   node scripts/devset/rebuild.mjs --mirrors DIR    mirrors elsewhere (DIR/<owner>+<name>/repo, git dirs)
 *   node scripts/devset/rebuild.mjs --out DIR        another folder than devset/
 *   node scripts/devset/rebuild.mjs --check          checks an existing devset/ against the manifest only
 *   node scripts/devset/rebuild.mjs --set holdout    the held-out set instead: holdout-manifest.jsonl into holdout/
 *   node scripts/devset/rebuild.mjs --set holdout2   the second held-out set: holdout2-manifest.jsonl into holdout2/
 *   node scripts/devset/rebuild.mjs --set holdout3   the third held-out set: holdout3-manifest.jsonl into holdout3/
 *   node scripts/devset/rebuild.mjs --set holdout4   the fourth held-out set: holdout4-manifest.jsonl into holdout4/
 *   node scripts/devset/rebuild.mjs --set holdout5   the fifth held-out set: holdout5-manifest.jsonl into holdout5/
 *   node scripts/devset/rebuild.mjs --set holdout6   the sixth held-out set: holdout6-manifest.jsonl into holdout6/
 *   node scripts/devset/rebuild.mjs --set holdout7   the seventh held-out set: holdout7-manifest.jsonl into holdout7/
 *   node scripts/devset/rebuild.mjs --set holdout8   the eighth held-out set: holdout8-manifest.jsonl into holdout8/
 *   node scripts/devset/rebuild.mjs --set holdout9   the ninth held-out set: holdout9-manifest.jsonl into holdout9/
 *   node scripts/devset/rebuild.mjs --set holdout10  the tenth held-out set: holdout10-manifest.jsonl into holdout10/
 *
 * Two sets share this script: `devset` (the default: manifest.jsonl, written to devset/), the sessions the
 * policy is tuned on, and `holdout` (holdout-manifest.jsonl, written to holdout/, git-ignored too), sessions
 * from other repositories that nothing is tuned on, to measure where the default truly stands; a fix found
 * on it is measured on both. `holdout2` (holdout2-manifest.jsonl, written to holdout2/, git-ignored) came
 * later, from 27 further repositories, once `holdout` had been looked at: its first figures are the unseen
 * ones. `holdout3` (holdout3-manifest.jsonl, into holdout3/, git-ignored) came after holdout2 had been read,
 * from 39 further repositories, with the newest agent versions. `holdout4` (holdout4-manifest.jsonl, into
 * holdout4/, git-ignored) came after holdout3 had been read, from 54 further repositories. `holdout5`
 * (holdout5-manifest.jsonl, into holdout5/, git-ignored) came after holdout4 had been read, from 42 further
 * repositories; nothing is tuned on it. `holdout6` (holdout6-manifest.jsonl, into holdout6/, git-ignored) came
 * after holdout5 had been read, from 28 further repositories; nothing is tuned on it either. `holdout7`
 * (holdout7-manifest.jsonl, into holdout7/, git-ignored) came after holdout6 had been read, weighted to Codex CLI
 * and Gemini CLI sessions; nothing is tuned on it either. `holdout8` (holdout8-manifest.jsonl, into holdout8/,
 * git-ignored) came after every earlier set had been fitted on or read, from 28 further repositories (`~/.claude`
 * folders committed whole, found by their `statsig/` files); its first figures are the unseen ones. `holdout9` (holdout9-manifest.jsonl, into holdout9/, git-ignored) came
 * after holdout8 had been fitted on, from 28 further repositories, sought for Codex CLI and Gemini CLI sessions but
 * holding one Gemini CLI chat among Claude Code sessions (docs/evaluation.md says why). `holdout10`
 * (holdout10-manifest.jsonl, into holdout10/, git-ignored) came after holdout9 had been fitted on, from 23 further
 * repositories, mostly Claude Code 2.x; its first figures are the unseen ones. All manifests
 * have the same fields.
 *
 * `manifest.jsonl` beside this script has one line per file: where it came from (`repo`, `commit`,
 * `path`), what it is (`sha256`, `bytes`), who wrote it (`agent`, `version`) and its `task_group`, plus
 * `loops` (session id -> note) for the sessions that hold a genuine loop. No content is committed.
 * Each file is taken with `git --git-dir MIRROR cat-file blob COMMIT:PATH` and written, bytes as they
 * were, to `OUT/<file>`. A repository whose mirror is missing is named (fetch it first); a file whose
 * sha256 or size differs is named and not written. Exit 0 when every file is there and checked, else 1.
 *
 * Then `OUT/sessions.jsonl`, the labels `loopwatch eval` reads, one per session the readers find (the
 * built library, `dist/`: run `npm run build` first), each `{"session", "exit_status": "interactive",
 * "agent": "<agent> <version>", "task_group", "source": "<repo>@<commit>:<path>"}` and `"loop": true` with
 * a `"note"` for a genuine loop. Gemini CLI chats are labelled by the session the reader names (their
 * `sessionId`); a Gemini CLI checkpoint names none, so the reader names it after its file (`FILE:1`), and its
 * label names that file relative to the project's root, as `eval holdout3/` run there reads it (`eval` finds
 * it however the folder is typed: the file's place in the set is the end of that path). Claude
 * Code's compaction and side-question transcripts (`subagents/agent-acompact-*`, `agent-aside_question-*`)
 * repeat their parent's calls: the reader passes them over (a note), so they get no label.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const at = args.indexOf(name);
  return at < 0 ? fallback : args[at + 1];
};
const sets = { devset: 'manifest.jsonl', holdout: 'holdout-manifest.jsonl', holdout2: 'holdout2-manifest.jsonl', holdout3: 'holdout3-manifest.jsonl', holdout4: 'holdout4-manifest.jsonl', holdout5: 'holdout5-manifest.jsonl', holdout6: 'holdout6-manifest.jsonl', holdout7: 'holdout7-manifest.jsonl', holdout8: 'holdout8-manifest.jsonl', holdout9: 'holdout9-manifest.jsonl', holdout10: 'holdout10-manifest.jsonl' };
const set = flag('--set', 'devset');
if (!Object.hasOwn(sets, set)) {
  console.error(`rebuild: --set must be one of ${Object.keys(sets).join(', ')}, got ${JSON.stringify(set)}`);
  process.exit(2);
}
const mirrors = resolve(flag('--mirrors', '/work/.mirror'));
const out = resolve(root, flag('--out', set));
const checkOnly = args.includes('--check');

const manifest = readFileSync(join(here, sets[set]), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l));

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const gitDir = (repo) => join(mirrors, repo.replace('/', '+'), 'repo');

const missingRepos = new Set();
const bad = [];
let written = 0;
for (const m of manifest) {
  const target = join(out, m.file);
  let bytes;
  if (checkOnly) {
    if (!existsSync(target)) {
      bad.push(`${m.file}: missing`);
      continue;
    }
    bytes = readFileSync(target);
  } else {
    if (!existsSync(gitDir(m.repo))) {
      missingRepos.add(m.repo);
      continue;
    }
    try {
      bytes = execFileSync('git', ['--git-dir', gitDir(m.repo), 'cat-file', 'blob', `${m.commit}:${m.path}`], { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      bad.push(`${m.file}: not in the mirror of ${m.repo} at ${m.commit} (${String(e.stderr ?? e.message).trim().split('\n')[0]}); fetch it again`);
      continue;
    }
  }
  const got = sha256(bytes);
  if (got !== m.sha256 || bytes.length !== m.bytes) {
    bad.push(`${m.file}: sha256 ${got} (${bytes.length} bytes), expected ${m.sha256} (${m.bytes} bytes)`);
    continue;
  }
  if (!checkOnly) {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, bytes);
    written++;
  }
}

if (missingRepos.size > 0) {
  console.error(`rebuild: ${missingRepos.size} repositories have no mirror under ${mirrors}; fetch these first:`);
  for (const r of [...missingRepos].sort()) console.error(`  github:${r}`);
}
for (const b of bad) console.error(`rebuild: ${b}`);
const ok = manifest.length - bad.length - manifest.filter((m) => missingRepos.has(m.repo)).length;
console.log(`rebuild: ${ok} of ${manifest.length} files ${checkOnly ? 'checked' : `written to ${out} and checked`} (sha256)`);
if (checkOnly || ok === 0) process.exit(bad.length + missingRepos.size === 0 ? 0 : 1);

// the labels: one per session the readers find in each file
const library = join(root, 'dist', 'src', 'index.js');
if (!existsSync(library)) {
  console.error('rebuild: dist/ is not built (npm run build): sessions.jsonl not written');
  process.exit(1);
}
const { readInputs } = await import(pathToFileURL(library).href);
const byFile = new Map(manifest.map((m) => [join(out, m.file), m]));
const labels = new Map();
const calls = new Map();
const present = [...byFile.keys()].filter((f) => existsSync(f));
for await (const item of readInputs(present)) {
  if (item.kind !== 'call') continue;
  const m = byFile.get(item.file);
  if (m === undefined) continue;
  calls.set(item.session, (calls.get(item.session) ?? 0) + 1);
  if (!labels.has(item.session)) labels.set(item.session, labelOf(fileNamed(item.session), m));
}
const lines = [...labels.values()];
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'sessions.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
const noted = new Set(manifest.flatMap((m) => Object.keys(m.loops ?? {})));
const unknownNotes = [...noted].filter((s) => !labels.has(s));
for (const s of unknownNotes) console.error(`rebuild: a loop note names session ${s}, which no reader found`);
console.log(`rebuild: ${lines.length} sessions labelled in ${join(out, 'sessions.jsonl')} (${lines.filter((l) => l.loop).length} with a genuine loop)`);
process.exit(bad.length + missingRepos.size + unknownNotes.length === 0 ? 0 : 1);

/**
 * A session the reader names after its file (a Gemini CLI checkpoint names none: `FILE:1`), as `eval`
 * run from the project's root names it (`holdout3/gemini-cli/...:1`); any other session as it is.
 */
function fileNamed(session) {
  return session.startsWith(out + sep) ? relative(root, session) : session;
}

/** The label of `session`, found in the file `m` describes. */
function labelOf(session, m) {
  const note = m.loops?.[session];
  return {
    session,
    exit_status: 'interactive',
    agent: m.version ? `${m.agent} ${m.version}` : m.agent,
    task_group: m.task_group,
    source: `${m.repo}@${m.commit}:${m.path}`,
    ...(note === undefined ? {} : { loop: true, note }),
  };
}
