/**
 * The file a read tool looked at: the path its args name (Claude Code's `Read` and Gemini CLI's `read_file`:
 * `file_path` / `absolute_path`; an editor's view: `path`). Kept as a successful read's target (the key of
 * that path, as a change's: name-keys.ts), so the evidence screen can tell a write refused on a file, then
 * answered by a look at that very file (Claude Code's "File has not been read yet. Read it first before
 * writing to it.", after a compaction forgot the reads), from the same write failing on and on.
 */
import { argMember } from '../fingerprint/json-args-text.js';
import { TARGET_FIELDS } from './workspace-changes.js';

/**
 * Args members naming the file a read looked at, in the order they are tried: a change's (noted by the module
 * as it reads the record: json-args-text.ts), then Gemini CLI's older `absolute_path` (read from the parsed args).
 */
export const READ_TARGET_FIELDS: readonly string[] = Object.freeze([...TARGET_FIELDS, 'absolute_path']);

/** The path a read's args name (the first non-empty string of READ_TARGET_FIELDS), or undefined (none, or args that cannot be read). */
export function readTarget(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  try {
    // (a revoked Proxy throws even at Array.isArray)
    if (Array.isArray(args)) return undefined;
    for (const f of READ_TARGET_FIELDS) {
      const v = argMember(args, f);
      if (typeof v === 'string' && v !== '') return v;
    }
  } catch {
    return undefined;
  }
  return undefined;
}
