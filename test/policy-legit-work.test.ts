/**
 * Must-not-break cases: legitimate, repetitive work seen in real agents, run through the default
 * LoopDetector (every detector, default policy). Each has a stuck twin that must fire.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { ToolEvent } from '../src/index.js';
import { fired, run } from './helpers/session.js';

const silent = (events: ToolEvent[]) => {
  const d = new LoopDetector();
  const v = run(d, events);
  return { fired: fired(v), verdicts: v, stats: d.stats() };
};

function snippet(path: string, line: number, code: string): string {
  return `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet of ${path}:\n   ${line}\t${code}\nReview the changes and make sure they are as expected.`;
}

describe('default policy on legitimate repetitive work', () => {
  it('should stay silent while polling a job whose output changes', () => {
    const events: ToolEvent[] = [{ tool: 'start_job', args: { name: 'build', ref: 'main' }, result: '{"job_id": "j-8812", "state": "queued"}' }];
    for (let i = 1; i <= 15; i++) events.push({ tool: 'job_status', args: { job_id: 'j-8812' }, result: `{"state": "running", "completed_steps": ${i}, "total_steps": 16, "log_tail": "step ${i}: compiling module ${i}"}` });
    events.push({ tool: 'job_status', args: '{"job_id":"j-8812"}', result: '{"state": "succeeded"}' });
    events.push({ tool: 'get_artifacts', args: { job_id: 'j-8812' }, result: '["app.tar.gz", "report.html"]' });
    expect(silent(events).fired).toEqual([]);
  });

  it('should fire when the polled job never moves, and ask the person once it has waited long', () => {
    // "running" says the job is under way: identical answers climb the ladder half a rung a verdict, and
    // at the top the person is asked (how long to wait for the world is theirs to say), not the run broken
    const events: ToolEvent[] = Array.from({ length: 10 }, () => ({ tool: 'job_status', args: { job_id: 'j-8812' }, result: '{"state": "running", "completed_steps": 3, "total_steps": 16}' }));
    const r = silent(events);
    expect(r.verdicts[2]?.action).toBe('warn');
    expect(r.verdicts[5]?.action).toBe('warn');
    expect(r.verdicts.at(-1)!.action).toBe('ask');
  });

  it('should warn but not break while a refund stays pending for a few polls before it is processed', () => {
    const events: ToolEvent[] = [{ tool: 'refund', args: { order_id: 'o-311', amount: 42 }, result: '{"refund_id": "r-77", "status": "pending"}' }];
    for (let i = 0; i < 5; i++) events.push({ tool: 'check_refund_status', args: { refund_id: 'r-77' }, result: '{"status": "pending"}' });
    events.push({ tool: 'check_refund_status', args: { refund_id: 'r-77' }, result: '{"status": "processed"}' });
    const r = silent(events);
    expect(r.verdicts.some((v) => v?.action === 'break')).toBe(false);
  });

  it('should still break at once on identical answers that say nothing is under way', () => {
    const events: ToolEvent[] = Array.from({ length: 5 }, () => ({ tool: 'job_status', args: { job_id: 'j-8812' }, result: '{"state": "failed", "reason": "quota exceeded"}' }));
    const r = silent(events);
    expect(r.verdicts[2]?.action).toBe('warn');
    expect(r.verdicts[3]?.action).toBe('break');
  });

  it('should stay silent on paginated reads', () => {
    const events: ToolEvent[] = [];
    for (let p = 0; p < 10; p++) events.push({ tool: 'read_file', args: { path: '/var/log/app/server.log', offset: p * 200, limit: 200 }, result: `lines ${p * 200 + 1}-${p * 200 + 200}: 2024-05-0${(p % 9) + 1} GET /api/items?page=${p} 200 ${13 + p}ms ...` });
    for (let p = 1; p <= 8; p++) events.push({ tool: 'list_orders', args: { customer: 'c-77', page: p, page_size: 50 }, result: JSON.stringify({ page: p, orders: [`o-${p}01`, `o-${p}02`, `o-${p}03`], next: p < 8 ? `cursor-${p + 1}` : null }) });
    for (let p = 0; p < 6; p++) events.push({ tool: 'sed', args: { command: `sed -n '${p * 100 + 1},${p * 100 + 100}p' django/db/models/query.py` }, result: `${p * 100 + 1}\tclass QuerySet_${p}:\n${p * 100 + 2}\t    """chunk ${p}"""` });
    expect(silent(events).fired).toEqual([]);
  });

  it('should fire when the same page is read again and again', () => {
    const page = { tool: 'read_file', args: { path: '/var/log/app/server.log', offset: 200, limit: 200 }, result: 'lines 201-400: ...' };
    expect(silent([page, page, page, page]).fired.length).toBeGreaterThan(0);
  });

  it('should stay silent while editing many different files in a batch', () => {
    const files = ['src/api/users.ts', 'src/api/orders.ts', 'src/services/billing.ts', 'src/services/mailer.ts', 'src/web/pages/profile.tsx', 'src/web/pages/checkout.tsx', 'test/api/users.test.ts', 'test/api/orders.test.ts', 'scripts/migrate.ts', 'src/cli/main.ts', 'src/jobs/nightly.ts', 'src/index.ts'];
    const events: ToolEvent[] = files.map((path, i) => ({
      tool: 'str_replace_editor',
      args: { command: 'str_replace', path: `/workspace/app/${path}`, old_str: 'getUser(', new_str: 'fetchUser(' },
      result: snippet(`/workspace/app/${path}`, 10 + i * 7, `const u = await fetchUser(id${i});`),
    }));
    const shell: ToolEvent[] = files.map((path) => ({ tool: 'sed', args: { command: `sed -i 's/getUser(/fetchUser(/g' ${path}` }, result: '' }));
    const writes: ToolEvent[] = files.map((path) => ({ tool: 'write_file', args: { path: `${path}.bak`, content: `// backup of ${path}` }, result: 'OK' }));
    expect(silent(events).fired).toEqual([]);
    expect(silent(shell).fired).toEqual([]);
    expect(silent(writes).fired).toEqual([]);
  });

  it('should fire when the same edit keeps failing', () => {
    const edit = (i: number) => ({ tool: 'str_replace_editor', args: { command: 'str_replace', path: '/workspace/app/src/api/users.ts', old_str: `getUser (id${i})`, new_str: 'fetchUser(id)' }, error: `ERROR: No replacement was performed, old_str \`getUser (id${i})\` did not appear verbatim in /workspace/app/src/api/users.ts.` });
    const r = silent([edit(1), edit(2), edit(3), edit(4)]);
    expect(r.fired.length).toBeGreaterThan(0);
    expect(r.verdicts.at(-1)!.kind).toBe('dead_end');
  });

  it('should stay silent when re-running the tests after each edit', () => {
    const events: ToolEvent[] = [];
    const outcomes = ['5 failed, 40 passed', '5 failed, 40 passed', '3 failed, 42 passed', '1 failed, 44 passed', '1 failed, 44 passed', '45 passed'];
    outcomes.forEach((o, i) => {
      events.push({ tool: 'str_replace_editor', args: { command: 'str_replace', path: '/repo/src/parser.py', old_str: `    return tokens[${i}]`, new_str: `    return tokens[${i + 1}]` }, result: snippet('/repo/src/parser.py', 40 + i, `    return tokens[${i + 1}]`) });
      const failing = o.includes('failed');
      events.push({ tool: 'pytest', args: { command: 'pytest -q tests/' }, result: `${o} in ${(1.2 + i / 10).toFixed(2)}s`, ...(failing ? { error: `[exit 1] ${o}` } : {}) });
    });
    expect(silent(events).fired).toEqual([]);
  });

  it('should fire when the tests keep failing the same way after the same edit', () => {
    const edit = { tool: 'str_replace_editor', args: { command: 'str_replace', path: '/repo/src/parser.py', old_str: 'a', new_str: 'b' }, result: 'edited' };
    const test = { tool: 'pytest', args: { command: 'pytest -q tests/' }, result: '5 failed, 40 passed', error: '[exit 1] AssertionError: expected 3 tokens' };
    expect(silent([edit, test, edit, test, edit, test]).fired.length).toBeGreaterThan(0);
  });

  it('should stay silent while exploring directories level by level', () => {
    const dirs = ['/repo', '/repo/src', '/repo/src/app', '/repo/src/app/models', '/repo/src/app/models/billing', '/repo/src/app/views', '/repo/src/lib', '/repo/tests', '/repo/tests/unit', '/repo/tests/unit/models'];
    const events: ToolEvent[] = dirs.map((d, i) => ({ tool: 'ls', args: { command: `ls -la ${d}` }, result: `total ${8 + i}\ndrwxr-xr-x  ${3 + i} root root 4096 .\n-rw-r--r--  1 root root ${100 * i} file_${i}.py` }));
    events.push(...dirs.slice(0, 5).map((d, i) => ({ tool: 'find', args: { command: `find ${d} -maxdepth 1 -name "*.py"` }, result: `${d}/mod_${i}.py\n${d}/__init__.py` })));
    expect(silent(events).fired).toEqual([]);
  });

  it('should fire when the same directory is listed over and over', () => {
    const ls = { tool: 'ls', args: { command: 'ls -la /repo/src' }, result: 'total 8\n-rw-r--r-- 1 root root 10 a.py' };
    expect(silent([ls, ls, ls]).fired).toEqual([2]);
  });

  it('should stay silent when a flaky API is retried after rate limits and timeouts', () => {
    const call = { tool: 'fetch_weather', args: { city: 'Lyon' } };
    const events: ToolEvent[] = [
      { ...call, error: 'HTTP 429 Too Many Requests' },
      { ...call, error: 'HTTP 429 Too Many Requests' },
      { ...call, error: 'Request timed out after 30000 ms' },
      { ...call, error: 'socket hang up' },
      { ...call, result: '{"temp": 14, "sky": "clear"}' },
    ];
    expect(silent(events).fired).toEqual([]);
  });
});
