/**
 * The part of the WebAssembly JavaScript API loopwatch uses (Node has it; the TypeScript "dom" library
 * that declares it is not loaded here).
 */
declare namespace WebAssembly {
  interface MemoryDescriptor {
    initial: number;
    maximum?: number;
    shared?: boolean;
  }
  class Memory {
    constructor(descriptor: MemoryDescriptor);
    readonly buffer: ArrayBuffer;
    grow(delta: number): number;
  }
  class Module {
    constructor(bytes: BufferSource);
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  class RuntimeError extends Error {}
  class CompileError extends Error {}
  class LinkError extends Error {}
  type BufferSource = ArrayBufferView | ArrayBuffer;
}
