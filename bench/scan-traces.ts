/**
 * Scans the real agent traces beside the repository (`../shared/data/traces`) with the default policy, or
 * a preset (`--preset NAME`), and prints how many sessions reached warn and break by how they ended.
 * Exits 0 with a message when the traces are absent.
 *
 *   npm run traces [-- --preset balanced] [-- --engine reference] [-- --json]
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { presetOptions } from '../src/presets/presets.js';
import { defaultTraceDir, formatScan, scanTraces } from '../src/eval/trace-scan.js';
import type { Engine, LoopDetectorOptions } from '../src/options/options.js';

const { values } = parseArgs({ options: { preset: { type: 'string' }, engine: { type: 'string' }, dir: { type: 'string' }, json: { type: 'boolean', default: false } } });
if (values.engine !== undefined && values.engine !== 'wasm' && values.engine !== 'reference') {
  console.error(`unknown engine "${values.engine}"; known: wasm, reference`);
  process.exit(2);
}
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = values.dir ?? defaultTraceDir(root);
if (dir === null) {
  console.log('No traces found at ../shared/data/traces (pass --dir DIR); nothing to scan.');
  process.exit(0);
}
const makers: Record<string, () => LoopDetectorOptions> = {
  chimera: () => presetOptions.chimera(),
  toolLoop: () => presetOptions.toolLoop(),
  balanced: () => presetOptions.balanced(),
  conservative: () => presetOptions.conservative(),
  aggressive: () => presetOptions.aggressive(),
  multiResolution: () => presetOptions.multiResolution(),
};
const preset = values.preset;
if (preset !== undefined && !(preset in makers)) {
  console.error(`unknown preset "${preset}"; known: ${Object.keys(makers).join(', ')}`);
  process.exit(2);
}
const base = preset === undefined ? {} : (makers[preset] as () => LoopDetectorOptions)();
const scan = await scanTraces(dir, values.engine === undefined ? base : { ...base, engine: values.engine as Engine });
const engine = values.engine ?? 'wasm';
if (values.json) console.log(JSON.stringify({ preset: preset ?? 'default', engine, events: scan.events, detectMicrosPerCall: (scan.detectMillis * 1000) / Math.max(1, scan.events), byExitStatus: scan.byExitStatus, byKind: scan.byKind }, null, 2));
else console.log(`${preset ?? 'default policy'} (${engine} engine)\n${formatScan(scan)}`);
