/**
 * Coding agents stuck repeating calls: the same call back to back (`exact_repeat`), a unit of calls
 * with the same args cycled (`cycle`), one call coming back every few calls (`frequency`), the same call
 * and outcome revisited after each attempt (`state_repeat`). Each maker returns exactly `count` calls,
 * the first being the first occurrence of what repeats.
 */
import type { ToolEvent } from '../../types.js';
import type { CodingAgent } from './coding-agent.js';
import { codeLine, fileLength } from './coding-scene.js';
import { bash, bashError, editFile, readFile, runTests, searchCode } from './coding-tools.js';
import { cycle, fill, recurring } from './loop-kit.js';
import type { Rng } from './random.js';
import type { Block } from './truth.js';

/** A range of the file at fault. */
function range(a: CodingAgent, rng: Rng): [string, number, number] {
  const path = a.scene.home;
  const start = 1 + 20 * rng.int(0, Math.floor(fileLength(path) / 20) - 2);
  return [path, start, start + 39];
}

/** A script whose crash the agent cannot get past. */
function crash(a: CodingAgent): string {
  const s = a.scene;
  return `Traceback (most recent call last):\n  File "${s.repo}/${s.home}", line 12, in <module>\n    import yaml\nModuleNotFoundError: No module named 'yaml'`;
}

/** The same call again and again. */
export function codingExactRepeat(a: CodingAgent, rng: Rng, count: number): Block {
  const s = a.scene;
  switch (rng.int(0, 3)) {
    case 0: {
      const target = rng.chance(0.5) ? 'tests' : rng.pick(s.testFiles);
      return { variant: `rerun-failing-tests-${s.harness}`, events: fill(count, () => runTests(s, rng, target)) };
    }
    case 1: {
      const [path, from, to] = range(a, rng);
      return { variant: 'reread-same-range', events: fill(count, () => readFile(path, from, to)) };
    }
    case 2: {
      const q = rng.sample(s.bug.words, 3).join(' ');
      return { variant: 'same-search-nothing-found', events: fill(count, () => searchCode(s, q, 0)) };
    }
    default: {
      const cmd = `cd ${s.repo} && python -m ${s.pkg}.cli --check`;
      return { variant: 'same-command-same-error', events: fill(count, () => bashError(cmd, crash(a))) };
    }
  }
}

/** A unit of two to four calls, the same args each time round. */
export function codingCycle(a: CodingAgent, rng: Rng, count: number): Block {
  const s = a.scene;
  const [path, from, to] = range(a, rng);
  const line = from + rng.int(0, 20);
  const old = codeLine(path, line).trim();
  const fixed = `${old}  # handle tz`;
  switch (rng.int(0, 2)) {
    case 0:
      return { variant: 'read-then-failing-edit', events: cycle(count, [() => readFile(path, from, to), () => editFile(path, `${old} `, fixed, 'missing')]) };
    case 1: {
      const before = [...s.failing];
      const after = before.slice(1);
      const test = (failing: string[]) => () => {
        s.failing = failing;
        return runTests(s, rng);
      };
      return { variant: `edit-test-revert-test-${s.harness}`, events: cycle(count, [() => editFile(path, old, fixed, 'ok', line), test(after), () => editFile(path, fixed, old, 'ok', line), test(before)]) };
    }
    default: {
      const q = `def ${s.symbol}`;
      const cmd = `cd ${s.repo} && python -c "from ${s.pkg} import ${s.symbol}; print(${s.symbol}('2024-03-01T09:00:00+00:00'))"`;
      return { variant: 'search-read-run', events: cycle(count, [() => searchCode(s, q, 2), () => readFile(path, from, to), () => bash(cmd, '2024-03-01 09:00:00')]) };
    }
  }
}

/**
 * One call, with the same result, coming back every two to four calls between other steps; or one tool
 * dominating: the same two or three reads over and over in no fixed order.
 */
export function codingFrequency(a: CodingAgent, rng: Rng, count: number): Block {
  const s = a.scene;
  const look = () => a.look();
  switch (rng.int(0, 3)) {
    case 3: {
      const reads = rng.sample(s.files, rng.int(2, 3)).map((f) => [f, 1 + 20 * rng.int(0, 2)] as const);
      return { variant: 'same-few-reads-in-any-order', events: fill(count, (k) => {
        const [f, from] = reads[k < reads.length ? k : rng.int(0, reads.length - 1)] as readonly [string, number];
        return readFile(f, from, from + 39);
      }) };
    }
    case 0: {
      const path = `${s.pkg}/config.py`;
      return { variant: 'reread-config-between-steps', events: recurring(count, rng, () => readFile(path, 1, 40), look, 1, 3) };
    }
    case 1: {
      const status = `M ${s.home}\n?? notes.txt`;
      return { variant: 'git-status-between-steps', events: recurring(count, rng, () => bash(`cd ${s.repo} && git status --short`, status), look, 1, 3) };
    }
    default:
      return { variant: `tests-between-reads-${s.harness}`, events: recurring(count, rng, () => runTests(s, rng), look, 1, 3) };
  }
}

/** The same check with the same outcome after each attempt; attempts are several varied calls, edits included. */
export function codingStateRepeat(a: CodingAgent, rng: Rng, count: number): Block {
  const s = a.scene;
  const hi = Math.max(4, Math.min(20, Math.floor((count - 1) / 3)));
  const attempt = (): ToolEvent => (rng.chance(0.35) ? a.edit(undefined, false) : a.look());
  if (rng.chance(0.5)) return { variant: `same-failing-tests-after-each-attempt-${s.harness}`, events: recurring(count, rng, () => runTests(s, rng), attempt, 4, hi) };
  const cmd = `cd ${s.repo} && python repro.py`;
  const out = `parsed: 2024-03-01 09:00:00 (tz=None)\nexpected tz=UTC\nFAIL`;
  return { variant: 'same-repro-output-after-each-attempt', events: recurring(count, rng, () => bash(cmd, out), attempt, 4, hi) };
}
