/**
 * An infrastructure failure is read in the error's own message, not in the agent's text it quotes (quiet10,
 * from codexerr: a devset `apply_patch` whose lines not found held `timeout` read as infrastructure, so its
 * failures never counted toward a dead end). Codex's patch failures (both forms), Claude Code's and Gemini
 * CLI's edit failures quote the call's input after their words (src/text/infra-failure.ts QUOTES).
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../src/index.js';
import { isInfraFailure } from '../src/text/infra-failure.js';
import { ENGINES, flaggedActions } from './helpers/verdicts.js';

const quoted = (line: string): string => `apply_patch verification failed: Failed to find expected lines in /app/internal/config/config.go:\n${line}\n\treturn fallback`;

describe('the error\'s own message', () => {
  it('should not read quoted patch or edit lines as infrastructure', () => {
    expect(isInfraFailure(quoted('\tctx, cancel := context.WithTimeout(ctx, timeout)'))).toBe(false);
    expect(isInfraFailure('error: Failed to find expected lines in src/net.py:\n    except socket.timeout:')).toBe(false);
    expect(isInfraFailure('<tool_use_error>String to replace not found in file.\nString: if (res.status === 503) retryAfter(timeout)</tool_use_error>')).toBe(false);
    expect(isInfraFailure('Failed to edit, 0 occurrences found for old_string (await fetch(url, { timeout: 5000 })). Original old_string was ...')).toBe(false);
  });

  it('should still read an infrastructure failure said in the message', () => {
    expect(isInfraFailure('stream error: request timed out')).toBe(true);
    expect(isInfraFailure('exit code 28\ncurl: (28) Operation timed out after 30001 milliseconds')).toBe(true);
    expect(isInfraFailure('API Error: 529 {"type":"error","error":{"type":"overloaded_error"}}')).toBe(true);
  });
});

/** Different patches of one file, each failing on lines that hold `timeout`. */
const patches: ToolEvent[] = Array.from({ length: 6 }, (_, i) => ({ tool: 'apply_patch', args: { input: `*** Begin Patch\n*** Update File: internal/config/config.go\n@@\n-\tctx, cancel := context.WithTimeout(ctx, timeout) // try ${i}\n+\tctx := ctx\n*** End Patch` }, error: quoted(`\tctx, cancel := context.WithTimeout(ctx, timeout) // try ${i}`) }));

describe.each(ENGINES)('a patch failing on lines that hold "timeout" (%s engine)', (engine) => {
  it('should count toward a dead end', () => {
    expect(flaggedActions(patches, engine).length).toBeGreaterThan(0);
  });
});
