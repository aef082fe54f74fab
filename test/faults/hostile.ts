/**
 * Hostile values for the fault-injection suite: getters and Proxy traps that throw, revoked Proxies,
 * null-prototype and cyclic objects, errors whose message cannot be read, toJSON that throws, symbols,
 * functions, BigInt, a 100,000-deep value. Each is made fresh by its maker.
 */

/** A function that throws `what`. */
export const boom = (what: string) => (): never => {
  throw new Error(what);
};
/** A Proxy (of `target`) whose every trap throws. */
export const trapsThrow = (target: object = {}): object => new Proxy(target, new Proxy({}, { get: (_t, trap) => boom(`trap ${String(trap)}`) }));
/** A revoked Proxy. */
export const revoked = (): object => {
  const r = Proxy.revocable({}, {});
  r.revoke();
  return r.proxy;
};
const nullProtoCycle = (): object => {
  const o = Object.create(null) as Record<string, unknown>;
  o.self = o;
  o.n = 1;
  return o;
};
const deep = (n: number): unknown => {
  let v: unknown = 'bottom';
  for (let i = 0; i < n; i++) v = { v };
  return v;
};

/** Values that throw or cannot be written as JSON, each made fresh. */
export const HOSTILE_VALUES: Record<string, () => unknown> = {
  'an object with a getter that throws': () => ({ a: 1, get b(): never { return boom('getter')(); } }),
  'a getter that throws, nested in an array': () => ({ list: [1, { get x(): never { return boom('deep getter')(); } }] }),
  'a Proxy whose every trap throws': () => trapsThrow(),
  'a Proxy of an array whose traps throw': () => trapsThrow([1, 2]),
  'a Proxy whose getPrototypeOf throws': () => new Proxy({ a: 1 }, { getPrototypeOf: boom('getPrototypeOf') }),
  'a revoked Proxy': revoked,
  'a revoked Proxy, nested': () => ({ a: [revoked()] }),
  'a null-prototype cyclic object': nullProtoCycle,
  'a cyclic array': () => {
    const a: unknown[] = [1];
    a.push(a);
    return a;
  },
  'a null-prototype object': () => Object.create(null) as object,
  'a toJSON that throws': () => ({ toJSON: boom('toJSON') }),
  'an Error whose message getter throws': () => {
    const e = new Error('x');
    Object.defineProperty(e, 'message', { get: boom('message getter') });
    return e;
  },
  'an object whose message getter throws': () => ({ get message(): never { return boom('message')(); } }),
  'an Error whose name getter throws': () => {
    const e = new Error('x');
    Object.defineProperty(e, 'name', { get: boom('name getter') });
    return e;
  },
  'a symbol': () => Symbol('s'),
  'a function': () => (): number => 1,
  'a BigInt': () => 10n ** 30n,
  'a 100,000-deep value': () => deep(100_000),
};

