/**
 * A `--session-memory` (ServeServer's `sessionMemory`) below one session's fixed cost (session-cost.ts:
 * its WebAssembly state, as long as the windows, and its objects) made the server drop every session after
 * each request, without a word: nothing was ever detected. It is refused at start, naming the minimum.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OptionRangeError } from '../src/errors.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { sessionCost } from '../src/serve/session-cost.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { tempFolder } from './helpers/temp-folder.js';

const wide = { detectors: Object.fromEntries(['exactRepeat', 'frequency', 'cycle', 'semantic', 'similarArgs', 'resultRepeat', 'deadEnd', 'stateRepeat'].map((n) => [n, { window: 10_000 }])) };

describe('a session memory budget below one session\'s fixed cost', () => {
  it('should be refused by ServeServer.start, naming the minimum', async () => {
    const cost = sessionCost([resolveOptions({})]);
    const e = await ServeServer.start({ port: 0, sessionMemory: cost - 1 }).then(async (s) => {
      await s.stop();
      return null;
    }, (err: unknown) => err);
    // before: started, and evicted every session after each request
    expect(e).toBeInstanceOf(OptionRangeError);
    expect((e as OptionRangeError).option).toBe('sessionMemory');
    expect((e as Error).message).toContain(`at least ${cost.toLocaleString('en-US')} bytes`);
    const s = await ServeServer.start({ port: 0, sessionMemory: cost });
    await s.stop();
  });

  it('should be refused by loopwatch serve (exit code 2), the config\'s windows making a session larger than the 1 MiB the flag allows', async () => {
    const config = join(tempFolder('serve-memory-floor'), 'wide.json');
    writeFileSync(config, JSON.stringify(wide));
    const cost = sessionCost([resolveOptions(wide)]);
    expect(cost).toBeGreaterThan(1 << 20);
    const r = await loopwatchInProcess(['serve', '--port', '0', '--no-token', '--no-state', '--session-memory', String(1 << 20), '--config', config], '');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--session-memory) is 1,048,576 bytes`);
    expect(r.stderr).toContain(`at least ${cost.toLocaleString('en-US')} bytes`);
  });
});
