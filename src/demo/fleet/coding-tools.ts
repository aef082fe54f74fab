/**
 * Tool calls of a coding agent, with the results its tools would give: `read_file` with numbered lines,
 * `edit_file` acknowledgements and "not found" errors, `search_code` grep hits, test runs (a `run_tests`
 * tool, or raw pytest through `bash` with its varying timings), other shell commands, and `submit`.
 */
import type { ToolEvent } from '../../types.js';
import { type CodingScene, codeLine, fileLength, numberedLines } from './coding-scene.js';
import { type Rng, hashString } from './random.js';

/** `read_file` of lines `start` to `end`; a range past the end of the file is an error. */
export function readFile(path: string, start: number, end: number): ToolEvent {
  const len = fileLength(path);
  const args = { path, start_line: start, end_line: end };
  if (start > len) return { tool: 'read_file', args, error: `Invalid range: start_line ${start} is past the end of ${path} (${len} lines)` };
  const last = Math.min(end, len);
  return { tool: 'read_file', args, result: `${path} (lines ${start}-${last} of ${len}):\n${numberedLines(path, start, last)}` };
}

/** `read_file` of a path that does not exist. */
export function readMissing(path: string, start = 1, end = 80): ToolEvent {
  return { tool: 'read_file', args: { path, start_line: start, end_line: end }, error: `FileNotFoundError: [Errno 2] No such file or directory: '${path}'` };
}

/** `search_code` for `query` with `hits` matches (0: nothing found), stable for a query and page. */
export function searchCode(scene: CodingScene, query: string, hits: number, page?: number): ToolEvent {
  const args = page === undefined ? { query } : { query, page };
  if (hits === 0) return { tool: 'search_code', args, result: `No matches found for "${query}".` };
  const h = hashString(`${query}|${page ?? 1}`);
  const lines: string[] = [];
  for (let k = 0; k < hits; k++) {
    const file = scene.files[(h + k * 7) % scene.files.length] as string;
    const line = 1 + ((h >>> (k % 16)) + k * 37) % fileLength(file);
    lines.push(`${file}:${line}: ${codeLine(file, line).trim()}`);
  }
  return { tool: 'search_code', args, result: lines.join('\n') };
}

/** `edit_file` replacing `oldStr` by `newStr`: applied at `line`, or failed (not found / ambiguous). */
export function editFile(path: string, oldStr: string, newStr: string, outcome: 'ok' | 'missing' | 'ambiguous', line = 1): ToolEvent {
  const args = { path, old_str: oldStr, new_str: newStr };
  if (outcome === 'missing') return { tool: 'edit_file', args, error: `No replacement was performed: old_str \`${oldStr}\` did not appear verbatim in ${path}.` };
  if (outcome === 'ambiguous') return { tool: 'edit_file', args, error: `No replacement was performed: multiple occurrences of old_str in ${path}. Include more context to make it unique.` };
  const shown = newStr.split('\n').map((l, i) => `${String(line + i).padStart(6)}\t${l}`).join('\n');
  return { tool: 'edit_file', args, result: `The file ${path} has been edited. Snippet of the edited file:\n${shown}\nReview the changes and make sure they are as expected.` };
}

/** The test command of a scene for `target` (the whole suite by default). */
export function testCall(scene: CodingScene, target = 'tests'): { tool: string; args: Record<string, string> } {
  return scene.harness === 'tool'
    ? { tool: 'run_tests', args: { path: target } }
    : { tool: 'bash', args: { command: `cd ${scene.repo} && python -m pytest ${target} -q` } };
}

/** The pytest summary line: `3 failed, 41 passed`, or `44 passed`. */
function summary(failed: number, passed: number): string {
  return failed === 0 ? `${passed} passed` : `${failed} failed, ${passed} passed`;
}

/** A test run of `target` against the scene's current failing tests (raw pytest adds a varying timing). */
export function runTests(scene: CodingScene, rng: Rng, target = 'tests'): ToolEvent {
  const failing = target === 'tests' ? scene.failing : scene.failing.filter((t) => t.startsWith(target));
  const passed = target === 'tests' ? scene.passed : Math.max(3, Math.floor(scene.passed / scene.testFiles.length));
  const failures = failing.map((t) => `FAILED ${t} - ${scene.bug.error}`).join('\n');
  const call = testCall(scene, target);
  if (scene.harness === 'tool') return { ...call, result: [failures, summary(failing.length, passed)].filter((s) => s !== '').join('\n') };
  const dots = '.'.repeat(Math.min(passed, 60)) + 'F'.repeat(failing.length);
  const secs = (0.2 + passed * 0.012 + rng.next() * 0.3).toFixed(2);
  const body = failing.length === 0 ? dots : `${dots}\n${'='.repeat(20)} FAILURES ${'='.repeat(20)}\n${failures}`;
  return { ...call, result: `${body}\n${summary(failing.length, passed)} in ${secs}s` };
}

/** A shell command and its output. */
export function bash(command: string, result: string): ToolEvent {
  return { tool: 'bash', args: { command }, result };
}

/** A shell command that failed. */
export function bashError(command: string, error: string): ToolEvent {
  return { tool: 'bash', args: { command }, error };
}

/** The agent handing in its work. */
export function submit(summaryText: string): ToolEvent {
  return { tool: 'submit', args: { summary: summaryText }, result: 'Submission received. The episode is over.' };
}

/** `git diff --stat` of the scene's edits so far. */
export function gitDiffStat(scene: CodingScene): ToolEvent {
  const files = [...new Set(scene.edits)];
  const body = files.length === 0 ? '' : `${files.map((f) => ` ${f} | ${2 + (hashString(f) % 9)} ${'+'.repeat(2)}${'-'.repeat(1)}`).join('\n')}\n ${files.length} file${files.length === 1 ? '' : 's'} changed`;
  return bash(`cd ${scene.repo} && git diff --stat`, body);
}
