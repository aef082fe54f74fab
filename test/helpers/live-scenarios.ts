/**
 * One shared set of call sequences for the live path: legitimate repetitive work that must never be
 * denied, and stuck loops that must be warned, then denied. Every way in (library, hooks, MCP proxy, SDK
 * adapters, service) replays the same scenarios, so a decision never depends on the door a call came in by.
 */

/** One scripted tool call and what it returned when it ran. */
export interface ScriptedCall {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly result?: string;
  readonly error?: string;
}

/** A scenario: its calls, and whether the session is stuck. */
export interface LiveScenario {
  readonly name: string;
  readonly calls: readonly ScriptedCall[];
  /** Stuck loops must be warned, then denied; legitimate work never denied. */
  readonly stuck: boolean;
}

const ok = (tool: string, args: Record<string, unknown>, result: string): ScriptedCall => ({ tool, args, result });
const fail = (tool: string, args: Record<string, unknown>, error: string): ScriptedCall => ({ tool, args, error });

const files = Array.from({ length: 10 }, (_, i) => `src/components/widget${i + 1}.tsx`);
const changed = ['src/cli/main.ts', 'src/index.ts', 'README.md', 'test/cli.test.ts', 'package.json', 'src/engine/table.ts', 'docs/api.md', 'src/types.ts'];
const explore = ['ls', 'ls src', 'cat README.md', 'ls src/cli', 'cat src/index.ts', 'ls test', 'cat package.json', 'ls src/engine', 'cat src/engine/table.ts', 'ls docs', 'cat docs/api.md', 'find . -name "*.json" -maxdepth 2'];

/** Legitimate work: proposed before each call runs, recorded after, never denied. */
export const LEGITIMATE: readonly LiveScenario[] = [
  {
    name: 'editing ten files whose names differ by a number',
    stuck: false,
    calls: files.map((f) => ok('edit', { path: f, old_string: 'import React from "react";', new_string: 'import * as React from "react";' }, `The file ${f} has been updated successfully.`)),
  },
  {
    name: 'editing ten files, each answered with the same acknowledgement',
    stuck: false,
    calls: files.map((f) => ok('edit', { path: f, old_string: 'var ', new_string: 'let ' }, 'OK')),
  },
  {
    name: 'git diff of each changed file in turn',
    stuck: false,
    calls: changed.map((f) => ok('bash', { command: `git diff ${f}` }, `diff --git a/${f} b/${f}\n@@ -1,3 +1,4 @@\n+// changed ${f}`)),
  },
  {
    name: 'the first exploration of a repository',
    stuck: false,
    calls: explore.map((c) => ok('bash', { command: c }, `(output of ${c})`)),
  },
  {
    name: 'npm test after each distinct edit, the failures going down',
    stuck: false,
    calls: Array.from({ length: 8 }, (_, i) => [
      ok('edit', { path: `src/module${i}.ts`, old_string: `return ${i};`, new_string: `return ${i + 1};` }, `The file src/module${i}.ts has been updated successfully.`),
      i < 7 ? fail('bash', { command: 'npm test' }, `Tests: ${7 - i} failed, ${30 + i} passed, 37 total`) : ok('bash', { command: 'npm test' }, 'Tests: 37 passed, 37 total'),
    ]).flat(),
  },
  {
    name: 'polling a job whose status changes',
    stuck: false,
    calls: [
      ok('start_job', { name: 'build' }, '{"job_id": "j-1", "state": "queued"}'),
      ...Array.from({ length: 10 }, (_, i) => ok('job_status', { job_id: 'j-1' }, `{"state": "running", "completed_steps": ${i + 1}, "total_steps": 12}`)),
      ok('job_status', { job_id: 'j-1' }, '{"state": "succeeded"}'),
    ],
  },
  {
    name: 'paginated reads of one log',
    stuck: false,
    calls: Array.from({ length: 10 }, (_, p) => ok('read_file', { path: '/var/log/app.log', offset: p * 200, limit: 200 }, `lines ${p * 200 + 1}-${p * 200 + 200}: GET /api/items?page=${p} 200`)),
  },
  {
    name: 'a type check printing nothing after each distinct edit',
    stuck: false,
    calls: Array.from({ length: 8 }, (_, i) => [
      ok('edit', { path: `src/module${i}.ts`, old_string: `const v = ${i};`, new_string: `const v = ${i + 1};` }, `The file src/module${i}.ts has been updated successfully.`),
      ok('bash', { command: 'npx tsc --noEmit' }, ''),
    ]).flat(),
  },
  {
    name: 'the same failing build after edits to different files',
    stuck: false,
    calls: Array.from({ length: 8 }, (_, i) => [
      ok('edit', { path: `src/part${i}.ts`, old_string: `export const p = ${i};`, new_string: `export const p: number = ${i};` }, `The file src/part${i}.ts has been updated successfully.`),
      fail('bash', { command: 'npm run build' }, "Exit code 2\nsrc/main.ts(3,1): error TS2304: Cannot find name 'foo'."),
    ]).flat(),
  },
];

/** Stuck loops: proposed before each call runs, recorded after; warned, then denied. */
export const STUCK: readonly LiveScenario[] = [
  {
    name: 'the same failing command again and again',
    stuck: true,
    calls: Array.from({ length: 8 }, () => fail('bash', { command: 'python setup.py build_ext --inplace' }, 'error: command "gcc" failed with exit status 1')),
  },
  {
    name: 'A-B-A-B edits that get reverted',
    stuck: true,
    calls: Array.from({ length: 5 }, () => [
      ok('edit', { path: 'src/config.py', old_string: 'TIMEOUT = 30', new_string: 'TIMEOUT = 60' }, 'The file src/config.py has been updated successfully.'),
      ok('edit', { path: 'src/config.py', old_string: 'TIMEOUT = 60', new_string: 'TIMEOUT = 30' }, 'The file src/config.py has been updated successfully.'),
    ]).flat(),
  },
  {
    name: 'the same search interleaved with new reads, each search finding nothing',
    stuck: true,
    calls: Array.from({ length: 9 }, (_, i) => [
      ok('grep', { pattern: 'def frobnicate', path: '.' }, 'No matches found'),
      ok('read_file', { path: `src/part${i}.py` }, `# part ${i}\nimport os\n`),
    ]).flat(),
  },
];
