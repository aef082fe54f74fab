/**
 * Session snapshots in a state directory, one file per session, for `loopwatch serve` to stop and start
 * again without losing sessions. A file holds its session's id beside the snapshot (ids can be any string,
 * so the file's name is a hash of the id), and is written to a temporary name then renamed, so a crash never
 * leaves half a file under a session's name.
 *
 * ```
 *   <dir>/<sha256(id) hex>.lwsession:  "LWSF" | u32 id byte length (LE) | id (UTF-8) | snapshot bytes (LWSS)
 * ```
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MAGIC = 'LWSF';
const SUFFIX = '.lwsession';

/** A session file read back: its id and snapshot, or why it could not be read. */
export type StateFile = { readonly path: string; readonly sessionId: string; readonly snapshot: Uint8Array } | { readonly path: string; readonly problem: string };

/** The file name of a session's snapshot. */
export function stateFileName(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex') + SUFFIX;
}

/** Writes a session's snapshot into `dir` (made if missing), atomically. */
export function writeStateFile(dir: string, sessionId: string, snapshot: Uint8Array): void {
  mkdirSync(dir, { recursive: true });
  const id = Buffer.from(sessionId, 'utf8');
  const head = Buffer.alloc(8);
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(id.length, 4);
  const path = join(dir, stateFileName(sessionId));
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([head, id, snapshot]));
  renameSync(tmp, path);
}

/** Every session file in `dir` (none when it does not exist), read back. */
export function readStateFiles(dir: string): StateFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const out: StateFile[] = [];
  for (const name of names.filter((n) => n.endsWith(SUFFIX)).sort()) {
    const path = join(dir, name);
    const bytes = readFileSync(path);
    const idLength = bytes.length >= 8 ? bytes.readUInt32LE(4) : -1;
    if (bytes.length < 8 || bytes.toString('latin1', 0, 4) !== MAGIC || 8 + idLength > bytes.length) {
      out.push({ path, problem: 'not a loopwatch session file (bad header)' });
      continue;
    }
    const sessionId = bytes.toString('utf8', 8, 8 + idLength);
    if (stateFileName(sessionId) !== name) {
      out.push({ path, problem: 'its name does not match the session id it holds' });
      continue;
    }
    out.push({ path, sessionId, snapshot: bytes.subarray(8 + idLength) });
  }
  return out;
}

/** Removes a session file that was restored (its state lives in memory now). */
export function removeStateFile(path: string): void {
  unlinkSync(path);
}

/** Keeps a file that could not be restored aside (`.bad`), so it is neither lost nor read again. */
export function setAsideStateFile(path: string): string {
  const bad = `${path}.bad`;
  renameSync(path, bad);
  return bad;
}
