/**
 * Claude Code's `PowerShell` tool (its shell on Windows, 2.1.x; 60 calls in holdout5 and holdout6) takes a
 * `description` as Bash does (the model's free text, new each time) and answers `{stdout, stderr,
 * interrupted, isImage}` as Bash does. Only Bash was read so: a PowerShell command run again with a new
 * description was a new call, and the hook compared its result as an object where the transcript gives
 * the model (and eval reads) its text. Now both are read as Bash's, by the hook, the hook payload log reader
 * and the transcript reader (volatile-input.ts, volatile-output.ts, claude-code-result.ts).
 */
import { describe, expect, it } from 'vitest';
import { claudeCodeResult } from '../src/formats/claude-code-result.js';
import { stableInput } from '../src/formats/volatile-input.js';
import { AGENTS } from '../src/hooks/agents.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { REPORTS_PASS, reportOf, reportsPass } from '../src/text/failure-report.js';
import { HEAD_NOTED, HEAD_REST_BLANK } from '../src/wasm/generated/abi.js';
import { WasmPipeline } from '../src/wasm/wasm-pipeline.js';

const base = { session_id: 's', transcript_path: '/nonexistent/s.jsonl', cwd: 'C:\\app', permission_mode: 'default' };
const input = (description: string) => ({ command: 'npm test', description });
const response = { stdout: 'FAIL test/a.test.ts\n', stderr: '', interrupted: false, isImage: false, persistedOutputPath: 'C:\\Users\\d\\AppData\\b7on7tw79.txt' };

describe("Claude Code's PowerShell tool, read as Bash", () => {
  it('should compare a command without its description, in the hook and the transcript alike', () => {
    const cc = AGENTS['claude-code'];
    const a = cc.decode({ ...base, hook_event_name: 'PreToolUse', tool_name: 'PowerShell', tool_use_id: 'a', tool_input: input('Run the tests') }, 'PreToolUse', 'propose').call;
    const b = cc.decode({ ...base, hook_event_name: 'PreToolUse', tool_name: 'PowerShell', tool_use_id: 'b', tool_input: input('Run the tests again') }, 'PreToolUse', 'propose').call;
    expect(a.args).toEqual({ command: 'npm test' }); // before: with its description
    expect(b.args).toEqual(a.args);
    expect(stableInput('claude-code', 'PowerShell', input('Run them'))).toEqual({ command: 'npm test' });
  });

  it('should read its tool_response as its text, as the transcript gives it', () => {
    const c = AGENTS['claude-code'].decode({ ...base, hook_event_name: 'PostToolUse', tool_name: 'PowerShell', tool_use_id: 'a', tool_input: input('x'), tool_response: response }, 'PostToolUse', 'record').call;
    expect(c.result).toBe('FAIL test/a.test.ts'); // before: the object, its per-run output path included
    expect(claudeCodeResult('PowerShell', response)).toBe('FAIL test/a.test.ts');
  });

  it("should read '(PowerShell completed with no output)' as empty output, as Bash's note is (both engines; newuser6)", () => {
    // the transcript's text for a command that printed nothing (28 in the sets; Bash's 510)
    for (const note of ['(Bash completed with no output)', '(PowerShell completed with no output)']) {
      expect(reportsPass(note)).toBe(true); // before, for PowerShell: false (the note read as words)
      expect(reportOf(note) & REPORTS_PASS).toBe(REPORTS_PASS);
      const p = new WasmPipeline(resolveOptions({}));
      try {
        p.observe({ tool: 'PowerShell', args: { command: 'Remove-Item build' }, result: note });
        expect(p.reading.word & (HEAD_NOTED | HEAD_REST_BLANK)).toBe(HEAD_NOTED | HEAD_REST_BLANK); // the module took it out: nothing left
      } finally {
        p.dispose();
      }
    }
  });
});
