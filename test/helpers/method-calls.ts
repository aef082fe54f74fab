/**
 * Counting a class's method calls while a function runs (the method patched on its prototype and put back):
 * how many times a record was written, a value walked.
 */

/** How many times `proto[name]` was called while `f` ran. */
export function callsDuring(proto: object, name: string, f: () => void): number {
  const target = proto as Record<string, (...a: unknown[]) => unknown>;
  const method = target[name] as (...a: unknown[]) => unknown;
  let n = 0;
  target[name] = function (this: unknown, ...a: unknown[]) {
    n++;
    return method.apply(this, a);
  };
  try {
    f();
  } finally {
    target[name] = method;
  }
  return n;
}
