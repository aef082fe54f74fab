/**
 * The call signature each engine gives one call's args: a LoopDetector per engine with a custom detector
 * that keeps every recorded signature (the semantic detector left out: a signature does not depend on it).
 */
import { expect } from 'vitest';
import { LoopDetector } from '../../src/index.js';
import type { Detector, LoopDetectorOptions, ObservedCall, ToolEvent } from '../../src/index.js';

/** A detector that only keeps the signature of each call recorded. */
export function signatureSpy(seen: string[]): Detector {
  return { name: 'spy', record: (c: ObservedCall) => void seen.push(c.signature), check: () => null, reset: () => undefined };
}

/** The call signatures the reference engine and the WebAssembly engine give a call of tool `t` with `args`. */
export function engineSignatures(args: unknown): { reference: string; wasm: string } {
  const out: string[][] = [[], []];
  for (const [k, engine] of (['reference', 'wasm'] as const).entries()) {
    const d = new LoopDetector({ engine, detectors: { semantic: false }, custom: [signatureSpy(out[k] as string[])] });
    try {
      d.check({ tool: 't', args });
    } finally {
      d.dispose();
    }
  }
  return { reference: out[0]?.[0] as string, wasm: out[1]?.[0] as string };
}

/**
 * Runs `events` through a reference and a WebAssembly LoopDetector made with `options`: each call's verdict,
 * every call's signature and the stats must be equal.
 */
export function expectEnginesAgree(events: readonly ToolEvent[], options: LoopDetectorOptions = {}): void {
  const refSeen: string[] = [];
  const wasmSeen: string[] = [];
  const ref = new LoopDetector({ ...options, engine: 'reference', custom: [signatureSpy(refSeen)] });
  const wasm = new LoopDetector({ ...options, engine: 'wasm', custom: [signatureSpy(wasmSeen)] });
  try {
    for (const e of events) expect(JSON.stringify(wasm.check(e))).toBe(JSON.stringify(ref.check(e)));
    expect(wasmSeen).toEqual(refSeen);
    expect(wasm.stats()).toEqual(ref.stats());
  } finally {
    wasm.dispose();
  }
}
