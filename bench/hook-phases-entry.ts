/**
 * Inside one fresh process, for `--scope hook`: how long compiling the WebAssembly module takes, and one
 * check of a hook (restore the session's snapshot, propose a call, take the snapshot) the first time (its
 * functions compiled as they run) and again (compiled). Prints them as JSON. Argument: the state directory
 * holding the session `bench-session` (claude-code).
 */
import { SessionFile } from '../src/hooks/session-file.js';
import { LoopDetector } from '../src/session/loop-detector.js';
import { MODULE_BASE64 } from '../src/wasm/generated/module-bytes.js';

const snapshot = new SessionFile(process.argv[2] as string, 'claude-code', 'bench-session').read() as Uint8Array;
let t = performance.now();
new WebAssembly.Module(Buffer.from(MODULE_BASE64, 'base64'));
const wasmCompileMs = performance.now() - t;

function check(): number {
  const start = performance.now();
  const d = new LoopDetector({}, 'bench-session');
  d.restore(snapshot);
  d.propose({ tool: 'Bash', args: { command: 'npm test -- part3' }, id: 'toolu_phase' });
  d.snapshot();
  d.dispose();
  return performance.now() - start;
}

const firstCheckMs = check();
const warmCheckMs = check();
process.stdout.write(JSON.stringify({ wasmCompileMs, firstCheckMs, warmCheckMs }));
