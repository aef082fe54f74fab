/** What a function throws, for tests that look at the error itself (its class, message and fields). */

/** What `f` throws, or undefined when it returns. */
export function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}
