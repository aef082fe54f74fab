/**
 * Legitimate repetition of coding agents, as blocks of calls placed inside ordinary work: polling a CI
 * run or a rollout, paging through search results, one edit over many files, the tests re-run after each
 * edit, a long file read range by range, a fetch retried through rate limiting. None of them is a loop.
 */
import type { ToolEvent } from '../../types.js';
import type { CodingAgent } from './coding-agent.js';
import { codeLine, fileLength } from './coding-scene.js';
import { bash, editFile, readFile, searchCode } from './coding-tools.js';
import type { Rng } from './random.js';
import type { Block, LegitPattern } from './truth.js';

/** The legitimate patterns coding sessions are built around. */
export const CODING_LEGIT: readonly LegitPattern[] = ['job_polling', 'pagination', 'batch_edit', 'test_reruns', 'range_reads', 'rate_limit_retry'];

/** Polling until done: a CI job with progress, `gh run view` (the same answer until it changes), or a rollout. */
function polling(a: CodingAgent, rng: Rng): Block {
  const polls = rng.int(3, 9);
  const id = rng.int(4000000, 9000000);
  const out: ToolEvent[] = [bash(`cd ${a.scene.repo} && git push origin HEAD:fix/${a.scene.symbol}`, `To github.com:acme/${a.scene.pkg}.git\n * [new branch]      HEAD -> fix/${a.scene.symbol}`)];
  let variant: string;
  switch (rng.int(0, 2)) {
    case 0:
      variant = 'ci-job-with-progress';
      for (let i = 1; i <= polls; i++) out.push({ tool: 'job_status', args: { job_id: `ci-${id}` }, result: JSON.stringify({ state: 'running', completed_steps: i, total_steps: polls + 1, log_tail: `step ${i}: ${rng.pick(['install', 'lint', 'unit tests', 'build wheel', 'type check'])}` }) });
      out.push({ tool: 'job_status', args: { job_id: `ci-${id}` }, result: JSON.stringify({ state: 'done', conclusion: 'success' }) });
      break;
    case 1: {
      variant = 'gh-run-view-same-answer';
      const cmd = `sleep 30 && gh run view ${id} --json status,conclusion`;
      for (let i = 1; i <= polls; i++) out.push(bash(cmd, '{"conclusion":"","status":"in_progress"}'));
      out.push(bash(cmd, '{"conclusion":"success","status":"completed"}'));
      break;
    }
    default: {
      variant = 'kubectl-rollout';
      const cmd = `kubectl rollout status deploy/${a.scene.pkg}-api --timeout=10s`;
      let ready = 0;
      const total = rng.int(3, 6);
      for (let i = 1; i <= polls && ready < total; i++) {
        if (rng.chance(0.6)) ready++;
        out.push(bash(cmd, `Waiting for deployment "${a.scene.pkg}-api" rollout to finish: ${ready} of ${total} updated replicas are available...`));
      }
      out.push(bash(cmd, `deployment "${a.scene.pkg}-api" successfully rolled out`));
    }
  }
  return { variant, events: out };
}

/** Paging through search results (`search_code` with a page) or the git log. */
function pagination(a: CodingAgent, rng: Rng): Block {
  const pages = rng.int(3, 8);
  const query = rng.pick([a.scene.symbol, `import ${a.scene.pkg}`, a.scene.bug.words[0] as string]);
  const git = rng.chance(0.4);
  const events = Array.from({ length: pages }, (_, p) =>
    git
      ? bash(`cd ${a.scene.repo} && git log --oneline --skip=${p * 20} -20`, Array.from({ length: 20 }, (_, i) => `${((p * 20 + i) * 0x9e3779 + 0xabcdef).toString(16).slice(0, 7)} ${rng.pick(['Fix', 'Add', 'Refactor', 'Docs:', 'Bump'])} ${rng.pick(a.scene.bug.words)}`).join('\n'))
      : searchCode(a.scene, query, p === pages - 1 ? rng.int(1, 4) : 10, p + 1),
  );
  return { variant: git ? 'git-log-skip' : 'search-code-pages', events };
}

/** One rename applied to many files. */
function batchEdit(a: CodingAgent, rng: Rng): Block {
  const files = rng.sample(a.scene.files, rng.int(4, a.scene.files.length));
  const from = `${a.scene.symbol}(`;
  const to = `${a.scene.symbol}_v2(`;
  const events = files.map((f) => {
    a.scene.edits.push(f);
    return editFile(f, from, to, 'ok', rng.int(5, fileLength(f)));
  });
  return { variant: 'rename-over-files', events };
}

/**
 * Failing tests fixed one edit at a time, the suite re-run after each edit until it is green: most edits
 * fix one test, some change nothing (the same output again). A green suite first gets broken by a refactor.
 */
function testReruns(a: CodingAgent, rng: Rng): Block {
  if (a.scene.failing.length === 0) a.scene.failing = Array.from({ length: rng.int(2, 5) }, (_, i) => `${rng.pick(a.scene.testFiles)}::test_refactor_${i}`);
  const out: ToolEvent[] = [a.test('tests')];
  for (let r = 1; a.scene.failing.length > 0 && r <= 12; r++) {
    const path = a.scene.home;
    const line = rng.int(1, fileLength(path));
    const old = codeLine(path, line).trim();
    out.push(editFile(path, old, `${old}  # round ${r}`, 'ok', line));
    a.scene.edits.push(path);
    if (a.scene.failing.length > 0 && rng.chance(0.75)) a.scene.failing.pop();
    out.push(a.test('tests'));
  }
  return { variant: a.scene.harness === 'tool' ? 'run-tests-tool' : 'pytest-in-bash', events: out };
}

/** A long file read range by range. */
function rangeReads(a: CodingAgent, rng: Rng): Block {
  const path = [...a.scene.files].sort((x, y) => fileLength(y) - fileLength(x))[0] as string;
  const size = rng.pick([50, 80, 100]);
  const n = Math.min(rng.int(4, 10), Math.ceil(fileLength(path) / size));
  return { variant: `ranges-of-${size}`, events: Array.from({ length: n }, (_, i) => readFile(path, 1 + i * size, (i + 1) * size)) };
}

/** Fetching documentation through a rate limit: the same call, 429s, then the page. */
function rateLimitRetry(a: CodingAgent, rng: Rng): Block {
  const url = `https://docs.python.org/3/library/${rng.pick(['datetime', 'decimal', 'zoneinfo', 'unicodedata', 'urllib.request'])}.html`;
  const out: ToolEvent[] = [];
  for (let i = rng.int(2, 4); i > 0; i--) out.push({ tool: 'fetch_url', args: { url }, error: `HTTP 429 Too Many Requests: rate limit exceeded, retry after ${rng.int(2, 30)}s` });
  out.push({ tool: 'fetch_url', args: { url }, result: `# ${url.split('/').pop() ?? url}\n${a.scene.bug.words.join(' ')} ... (documentation page, 14,220 characters)` });
  return { variant: 'fetch-after-429', events: out };
}

/** A block of calls showing the legitimate pattern `p` in a coding session. */
export function codingLegit(p: LegitPattern, a: CodingAgent, rng: Rng): Block {
  switch (p) {
    case 'job_polling': return polling(a, rng);
    case 'pagination': return pagination(a, rng);
    case 'batch_edit': return batchEdit(a, rng);
    case 'test_reruns': return testReruns(a, rng);
    case 'range_reads': return rangeReads(a, rng);
    case 'rate_limit_retry': return rateLimitRetry(a, rng);
    default: return { variant: 'plain', events: a.work(rng.int(4, 8)) };
  }
}
