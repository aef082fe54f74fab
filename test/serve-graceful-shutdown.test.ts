/**
 * `loopwatch serve` stopped by SIGTERM: it stops accepting, finishes the request in flight, writes every
 * live session to the state directory and exits 0; the next start restores them, and the sessions go on
 * with the verdicts of an uninterrupted run. A state file that cannot be restored is named and kept aside.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fleetEvents } from '../bench/fleet.js';
import { CONFIG_PRESETS } from '../src/presets/config-options.js';
import { tempDir } from './helpers/cli.js';
import { post, rawSocket, readUntilClose } from './helpers/http.js';
import { startServe } from './helpers/serve-process.js';
import { json, perSession } from './helpers/verdicts.js';

describe('loopwatch serve on SIGTERM', () => {
  it('should finish the request in flight, persist every session, exit 0, and restore them at the next start', async () => {
    const dir = tempDir();
    const events = fleetEvents(50, 12);
    // serve runs the shipped default preset (fitted) when none is named
    const want = perSession(events, CONFIG_PRESETS.default?.(undefined));
    const half = events.length / 2;
    const first = await startServe(['--port', '0', '--no-token', '--state-dir', dir]);
    const got: string[] = [];
    const r1 = await post(`${first.url}/v1/check/batch`, { calls: events.slice(0, half - 1) });
    got.push(...(r1.body.results as { verdict: unknown }[]).map((x) => json(x.verdict)));
    // one request in flight when SIGTERM comes: headers and half its body sent
    const body = JSON.stringify(events[half - 1]);
    const inFlight = await rawSocket(first.url);
    // `Expect: 100-continue`: the server writes its 100 Continue as it takes the request (Node's server, with no
    // checkContinue listener, writes it and emits 'request' at once), so SIGTERM comes only once the request is
    // in flight, however slow the machine (a fixed 100 ms wait lost that race at load 20: a 503 "stopping")
    const answer = readUntilClose(inFlight, 30_000);
    const taken = new Promise<void>((resolve) => {
      let seen = '';
      const look = (b: Buffer): void => {
        seen += b.toString('utf8');
        if (!seen.includes('\r\n\r\n')) return;
        inFlight.off('data', look);
        resolve();
      };
      inFlight.on('data', look);
    });
    inFlight.write(`POST /v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`);
    await taken;
    first.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    // no new connections while it drains (a request on a connection already open gets 503: serve-shutdown-keep-alive)
    await expect(rawSocket(first.url)).rejects.toThrow(/ECONNREFUSED/);
    inFlight.write(body.slice(10));
    const received = (await answer).text;
    expect(received).toMatch(/^HTTP\/1.1 100 Continue\r\n\r\n/);
    const text = received.slice(received.indexOf('\r\n\r\n') + 4);
    expect(text).toMatch(/^HTTP\/1.1 200/);
    got.push(json((JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { verdict: unknown }).verdict));
    expect(await first.exited).toBe(0);
    expect(first.stderr()).toContain('50 sessions written');
    expect(readdirSync(dir).filter((n) => n.endsWith('.lwsession'))).toHaveLength(50);

    const second = await startServe(['--port', '0', '--no-token', '--state-dir', dir]);
    try {
      expect(second.stderr()).toContain('50 sessions restored');
      expect(readdirSync(dir)).toHaveLength(0);
      const r2 = await post(`${second.url}/v1/check/batch`, { calls: events.slice(half) });
      got.push(...(r2.body.results as { verdict: unknown }[]).map((x) => json(x.verdict)));
      expect(got).toEqual(want);
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  }, 60_000);

  it('should name a state file it cannot restore and keep it aside as .bad', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'feedbeef.lwsession'), 'not a session');
    const s = await startServe(['--port', '0', '--no-token', '--state-dir', dir]);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(s.stderr()).toMatch(/feedbeef\.lwsession\.bad: not restored: not a loopwatch session file/);
    expect(readdirSync(dir)).toEqual(['feedbeef.lwsession.bad']);
  }, 30_000);
});
