/**
 * hostile6: a config's lists are bounded where each session pays for them. `ignoreFields` (top-level or a
 * tool's), `tools` and `families` name at most `MAX_CONFIG_LIST` (1,000) entries; a longer one is an
 * `OptionRangeError` naming the field, and `scan --config` names the file and the field, exit 2. Before: a
 * 16 MiB config of 200,000 tool rules or 100,000 ignored fields cost about 130 ms a session (a scan of the
 * traces ran past ten minutes), and 1,000,000 families took 89 s and 1.2 GB before the first call.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OptionRangeError } from '../src/index.js';
import { MAX_CONFIG_LIST, resolveOptions } from '../src/options/resolve-options.js';
import { configOptions } from '../src/presets/config-options.js';
import { tempDir, writeJsonl } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

const names = (n: number, prefix: string): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const each = <T>(n: number, prefix: string, value: T): Record<string, T> => Object.fromEntries(names(n, prefix).map((k) => [k, value]));

describe('config lists', () => {
  it(`should take ${MAX_CONFIG_LIST} ignored fields, tools and families`, () => {
    expect(() => resolveOptions({ ignoreFields: names(MAX_CONFIG_LIST, 'f'), tools: { ...each(MAX_CONFIG_LIST - 1, 't', {}), Bash: { ignoreFields: names(MAX_CONFIG_LIST, 'g') } } })).not.toThrow();
    expect(() => configOptions({ families: each(MAX_CONFIG_LIST, 'fam', {}) })).not.toThrow();
  });

  it('should refuse one more, naming the field', () => {
    const over = MAX_CONFIG_LIST + 1;
    expect(() => resolveOptions({ ignoreFields: names(over, 'f') })).toThrow(OptionRangeError);
    expect(() => resolveOptions({ ignoreFields: names(over, 'f') })).toThrow(/^options\.ignoreFields must be an array of at most 1000 strings, received 1001$/);
    expect(() => resolveOptions({ tools: { Bash: { ignoreFields: names(over, 'f') } } })).toThrow(/^options\.tools\["Bash"\]\.ignoreFields must be an array of at most 1000/);
    expect(() => resolveOptions({ tools: each(over, 't', {}) })).toThrow(/^options\.tools must name at most 1000 tools, received 1001$/);
    expect(() => configOptions({ families: each(over, 'fam', {}) })).toThrow(/^config\.families must name at most 1000 families, received 1001$/);
  });

  it('should refuse a config of 200,000 tool rules at once in scan, naming the file and the field', async () => {
    const dir = tempDir();
    const config = join(dir, 'many-tools.json');
    writeFileSync(config, JSON.stringify({ tools: each(200_000, 't', { exempt: true }) }));
    const input = writeJsonl(dir, 'calls.jsonl', [{ session_id: 's', tool: 'Bash', args: { command: 'ls' } }]);
    // the scan's modules loaded before the clock starts (a process loaded its bundle inside it): the bound is the refusal's
    await Promise.all([import('../src/cli/main.js'), import('../src/cli/scan-command.js')]);
    const t0 = performance.now();
    const r = await loopwatchInProcess(['scan', '--config', config, input]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('many-tools.json: options.tools must name at most 1000 tools, received 200000');
    expect(performance.now() - t0).toBeLessThan(20_000);
  }, 180_000); // in process the timer runs through the scan (the test 20 s once at load ~15), as spawnSync blocked it
});
