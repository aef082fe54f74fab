/**
 * How a hook waits for its session's lock: it gives up when one holder keeps the lock for LOCK_WAIT_MS,
 * not while the lock changes hands (the session's other hooks are getting through: 30 parallel calls of
 * one turn are a queue, not a stuck holder), and never after LOCK_MAX_WAIT_MS in all. The lock's holders
 * here are a worker thread rewriting the lock file as successive hooks would (same process: alive).
 * The waits are acquireLock's options at half the defaults (WAIT_MS, MAX_WAIT_MS below: the same code path,
 * 7 s less of blocking); the defaults themselves are waited out by a hook process in hook-parallel-session.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCK_MAX_WAIT_MS, LOCK_WAIT_MS, acquireLock } from '../src/hooks/state-lock.js';

/** The waits given to acquireLock here: half of LOCK_WAIT_MS and LOCK_MAX_WAIT_MS (a holder still changes every 150 ms, 10 times within WAIT_MS). */
const WAIT_MS = LOCK_WAIT_MS / 2;
const MAX_WAIT_MS = LOCK_MAX_WAIT_MS / 2;
const waits = { waitMs: WAIT_MS, maxWaitMs: MAX_WAIT_MS };

/** A worker that, every `everyMs`, hands the lock at `path` to a new holder, for `forMs`, then releases it. */
const HOLDERS = `
const { workerData, parentPort } = require('node:worker_threads');
const { writeFileSync, unlinkSync } = require('node:fs');
const { path, everyMs, forMs, pid } = workerData;
const start = Date.now();
let n = 0;
const tick = () => {
  if (Date.now() - start >= forMs) {
    try { unlinkSync(path); } catch {}
    parentPort.postMessage('released');
    return;
  }
  writeFileSync(path, pid + ' ' + Date.now() + ' holder' + n++);
  if (n === 1) parentPort.postMessage('held');
  setTimeout(tick, everyMs);
};
tick();
`;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function lockPath(): string {
  const d = mkdtempSync(join(tmpdir(), 'loopwatch-lock-wait-'));
  dirs.push(d);
  return join(d, '0123456789abcdef0123456789abcdef.lock');
}

/** Starts the holders and resolves when the first holds the lock. */
async function holders(path: string, everyMs: number, forMs: number): Promise<Worker> {
  const w = new Worker(HOLDERS, { eval: true, workerData: { path, everyMs, forMs, pid: process.pid } });
  await new Promise<void>((resolve) => w.once('message', () => resolve()));
  return w;
}

describe('waiting for a session\'s lock', () => {
  it(`should keep waiting past ${WAIT_MS} ms while the lock changes hands, and take it when free`, async () => {
    const path = lockPath();
    const w = await holders(path, 150, WAIT_MS + 750);
    const t = Date.now();
    const release = acquireLock(path, waits);
    const waited = Date.now() - t;
    await w.terminate();
    expect(release).not.toBeNull();
    expect(waited).toBeGreaterThanOrEqual(WAIT_MS);
    release?.();
  }, 30_000);

  it(`should give up after ${WAIT_MS} ms when one holder keeps it`, async () => {
    const path = lockPath();
    const w = await holders(path, 60_000, 60_000);
    const t = Date.now();
    expect(acquireLock(path, waits)).toBeNull();
    const waited = Date.now() - t;
    await w.terminate();
    expect(waited).toBeGreaterThanOrEqual(WAIT_MS);
    expect(waited).toBeLessThan(MAX_WAIT_MS);
  }, 30_000);

  it(`should give up after ${MAX_WAIT_MS} ms in all, however the lock moves`, async () => {
    const path = lockPath();
    const w = await holders(path, 150, 60_000);
    const t = Date.now();
    expect(acquireLock(path, waits)).toBeNull();
    const waited = Date.now() - t;
    await w.terminate();
    expect(waited).toBeGreaterThanOrEqual(MAX_WAIT_MS);
  }, 30_000);
});
