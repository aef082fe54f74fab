/**
 * The real agent traces beside the repository (`../shared/data/traces`: `events.jsonl.gz`, one tool call a
 * line, and `sessions.jsonl`, how each session ended), found and read. Absent on CI: callers skip.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the traces' metadata says about a session. */
export interface SessionInfo {
  readonly session: string;
  readonly agent: string;
  /** `submitted`, `step_limit`, `exit_cost`, `exit_context`, `exit_format`, `error` or `unknown`. */
  readonly exit_status: string;
  /** Whether the run solved its task, when known. */
  readonly resolved?: boolean | null;
}

/** The traces folder beside the repository, if present. */
export function defaultTraceDir(repoRoot: string): string | null {
  const dir = join(repoRoot, '..', 'shared', 'data', 'traces');
  return existsSync(join(dir, 'events.jsonl.gz')) && existsSync(join(dir, 'sessions.jsonl')) ? dir : null;
}

/** Reads `sessions.jsonl` in `dir`: metadata by session id. */
export function readSessions(dir: string): Map<string, SessionInfo> {
  const out = new Map<string, SessionInfo>();
  for (const line of readFileSync(join(dir, 'sessions.jsonl'), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const s = JSON.parse(line) as SessionInfo;
    out.set(s.session, s);
  }
  return out;
}
