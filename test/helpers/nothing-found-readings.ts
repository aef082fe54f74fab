/**
 * The "nothing found" reading of a result's bytes, asked of the module (assembly/nothing.ts, through the
 * thread's shared instance and its scratch area) and of its TypeScript twin (src/text/nothing-found.ts).
 * A test file using it touches the module's memory as an import of src/wasm would: it says
 * `// vitest: isolate` (test/setup/isolation.ts reads a file's own text, not its helpers').
 */
import { bytesSayNothingFound } from '../../src/text/nothing-found.js';
import { sharedInstance } from '../../src/wasm/wasm-module.js';

const utf8 = new TextEncoder();

/** The module's answer for `bytes`. */
export function moduleSaysNothingFound(bytes: Uint8Array): boolean {
  const inst = sharedInstance();
  const at = inst.exports.reserveScratch(bytes.length + 64);
  inst.views().u8.set(bytes, at);
  return inst.exports.saysNothingFound(at, bytes.length) === 1;
}

/** What each reading (TypeScript, then the module) says of `text`. */
export function nothingFoundReadings(text: string): [boolean, boolean] {
  const bytes = utf8.encode(text);
  return [bytesSayNothingFound(bytes, bytes.length), moduleSaysNothingFound(bytes)];
}
