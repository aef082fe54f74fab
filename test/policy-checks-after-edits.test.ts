/**
 * A check re-run after each distinct change of the workspace is progress, not a loop, even when its output
 * never changes: `npx tsc --noEmit` printing nothing, `ruff check` saying "All checks passed!", a cached
 * `go test`, and the same failing build after edits to different files (the state it checks changed each
 * time). The stuck twins still fire: the same check with only reads between, the same edit made again
 * between, a reproduction script describing the same behaviour after each edit, a failing check after
 * edits of one file, and an edit failing again after other edits. Both engines, one- and two-phase.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { changeTarget, changesWorkspace } from '../src/policy/workspace-changes.js';
import { reportsFailure, reportsPass } from '../src/text/failure-report.js';
import { ENGINES, flaggedActions, liveActions } from './helpers/verdicts.js';

const FILES = ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts', 'src/e.ts', 'src/f.ts', 'src/g.ts', 'src/h.ts', 'src/i.ts'];

const edit = (file: string, i: number): ToolEvent => ({
  tool: 'Edit',
  args: { file_path: file, old_string: `const v${i} = ${i};`, new_string: `const v${i} = ${i + 1};` },
  result: `The file ${file} has been updated successfully.`,
});
const bash = (command: string, result: string): ToolEvent => ({ tool: 'Bash', args: { command }, result });

/** An edit of another file, then the check, nine times. */
const afterEachEdit = (check: ToolEvent): ToolEvent[] => FILES.flatMap((f, i) => [edit(f, i), check]);

const TSC = bash('npx tsc --noEmit', '');
const RUFF = bash('ruff check .', 'All checks passed!');
const GO = bash('go test ./...', 'ok  \texample.com/shop/cart\t(cached)\nok  \texample.com/shop/orders\t(cached)');
const BUILD_ERROR = "src/main.ts(3,1): error TS2304: Cannot find name 'foo'.";
const FAILING_BUILD: ToolEvent = { tool: 'Bash', args: { command: 'npm run build' }, error: `Exit code 2\n${BUILD_ERROR}` };
const REPRO = bash('python reproduce.py', 'Default modules result: 4\nExpected: -4');

describe('what a check says and what changes the workspace', () => {
  it('should read passes, failures and writes', () => {
    for (const text of ['', 'All checks passed!', '9 passed in 0.42s', 'ok  \tpkg\t(cached)', 'Success: no issues found in 12 source files']) expect(reportsPass(text)).toBe(true);
    for (const text of [BUILD_ERROR, 'Traceback (most recent call last):', '2 failed, 7 passed']) expect(reportsPass(text)).toBe(false);
    expect(reportsFailure(BUILD_ERROR)).toBe(true);
    expect(reportsFailure('Found 0 errors. Watching for file changes.')).toBe(false);
    expect(reportsFailure('src/components/ErrorBoundary.tsx')).toBe(false);
    expect(changesWorkspace('Edit', { file_path: 'a' })).toBe(true);
    expect(changesWorkspace('Bash', { command: "sed -i 's/a/b/' src/x.py" })).toBe(true);
    expect(changesWorkspace('Bash', { command: 'gofmt -w cmd/api/main.go' })).toBe(true);
    expect(changesWorkspace('Bash', { command: 'grep -rn foo src 2>/dev/null' })).toBe(false);
    expect(changesWorkspace('str_replace_editor', { command: 'view', path: 'a' })).toBe(false);
    expect(changeTarget('apply_patch', '*** Begin Patch\n*** Update File: src/x.rs\n@@\n-a\n+b\n*** End Patch')).toBe('src/x.rs');
  });
});

describe.each(ENGINES)('checks re-run after each distinct edit (%s engine)', (engine) => {
  it.each([
    ['a type check printing nothing', TSC],
    ['a lint saying all checks passed', RUFF],
    ['a cached go test', GO],
    ['the same failing build after edits to different files', FAILING_BUILD],
  ])('should not flag %s, one- or two-phase', (_name, check) => {
    const events = afterEachEdit(check);
    expect(flaggedActions(events, engine)).toEqual([]);
    expect(liveActions(events, engine)).toEqual([]);
  });

  it('should still flag the same check with only reads between', () => {
    const events = FILES.flatMap((f) => [{ tool: 'Read', args: { file_path: f }, result: `contents of ${f}` }, TSC]);
    expect(flaggedActions(events, engine)).toContain('break');
    expect(liveActions(events, engine)).toContain('warn');
  });

  it('should still break the same edit made again between the checks', () => {
    const events = FILES.flatMap(() => [edit('src/a.ts', 0), TSC]);
    expect(flaggedActions(events, engine)).toContain('break');
    expect(liveActions(events, engine)).toContain('deny');
  });

  it('should still break a reproduction script describing the same behaviour after each edit', () => {
    const events = afterEachEdit(REPRO);
    expect(flaggedActions(events, engine)).toContain('break');
    expect(liveActions(events, engine)).toContain('deny');
  });

  it('should still break a failing check after edits of one file', () => {
    const events = FILES.flatMap((_f, i) => [edit('src/a.ts', i), FAILING_BUILD]);
    expect(flaggedActions(events, engine)).toContain('break');
    expect(liveActions(events, engine)).toContain('deny');
  });
});
