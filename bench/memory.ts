/**
 * Memory per session, measured in a fresh child process (its own module instance, so no slot freed by an
 * earlier benchmark is reused, and garbage collection on demand): the slot a configuration lays out, the WebAssembly memory 10,000 sessions
 * really took, and the JavaScript heap each LoopDetector holds (after garbage collection).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** One configuration's memory figures. */
export interface MemoryFigure {
  detectors: string;
  /** Bytes of a slot as laid out. */
  slotBytes: number;
  /** WebAssembly memory grown per session over 10,000 sessions. */
  wasmBytes: number;
  /** JavaScript heap per session over 10,000 sessions, new; NaN when gc is not exposed. */
  jsHeapBytes: number;
  /** The same after 30 calls each (the call log holds the last calls' args). */
  jsHeapAfterCallsBytes: number;
}

/** Runs the memory measurement in a child process and returns its figures. */
export function memoryFigures(): Promise<MemoryFigure[]> {
  return new Promise((resolve, reject) => {
    let figures: MemoryFigure[] | null = null;
    const child = fork(fileURLToPath(new URL('./memory-worker.js', import.meta.url)), [], { execArgv: ['--expose-gc'] });
    child.once('message', (m) => {
      figures = m as MemoryFigure[];
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0 && figures !== null) resolve(figures);
      else reject(new Error(`the memory measurement exited with ${code} before reporting`));
    });
  });
}
