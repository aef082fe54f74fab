/**
 * Options objects a library user (or a config file) hands over that fight back: getters that throw or
 * answer differently on each read, Proxies that list other keys each time or are revoked, and `__proto__`
 * keys (JSON.parse makes them own keys). Each options object is read once, property by property, so what
 * is checked is what is used; one that cannot be read is an OptionTypeError naming where; a `__proto__` key
 * is refused as any unknown key is, with a preset as without one (hostile5; before: the getters read twice,
 * the one checked not the one used; a throwing getter's raw Error; with a preset, `policy.__proto__`
 * silently dropped and `detectors.__proto__` made the detectors' prototype, "not a plain object").
 */
import { describe, expect, it } from 'vitest';
import { LiveGuard, LoopDetector, LoopEngine, LoopPool, OptionTypeError } from '../src/index.js';
import { configOptions } from '../src/presets/config-options.js';

const CALL = { tool: 'bash', args: { command: 'npm test' } };

/** The actions of four identical calls in a detector and in an engine made with `options()`. */
function actions(options: () => object): string[][] {
  const d = new LoopDetector(options());
  const e = new LoopEngine(options());
  try {
    return [Array.from({ length: 4 }, () => d.check(CALL)?.action ?? 'none'), Array.from({ length: 4 }, () => e.check('s', CALL)?.action ?? 'none')];
  } finally {
    d.dispose();
    e.close();
  }
}

describe('options that fight back', () => {
  it('should read a getter once and use the value it checked', () => {
    for (const [first, second] of [[{ exactRepeat: { threshold: 2 } }, { exactRepeat: false }], [{ exactRepeat: false }, { exactRepeat: { threshold: 2 } }]]) {
      let reads = 0;
      const flipping = (): object => {
        let own = 0;
        return {
          get detectors() {
            reads++;
            return own++ === 0 ? first : second;
          },
        };
      };
      const got = actions(flipping);
      expect(reads).toBe(2); // once per object: the detector's, the engine's
      const steady = actions(() => ({ detectors: first }));
      expect(got).toEqual(steady);
    }
  });

  it('should check the value it uses when a getter turns bad on its second read', () => {
    let reads = 0;
    const options = { policy: { get cooldown() { return reads++ === 0 ? 1 : -5; } } };
    expect(() => new LoopDetector(options).dispose()).not.toThrow();
    expect(reads).toBe(1);
  });

  it('should name the option that cannot be read, never throw the raw error', () => {
    const throwing = { get policy(): never { throw new Error('getter boom'); } };
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const trap = new Proxy({}, { ownKeys: () => { throw new Error('trap boom'); } });
    for (const [options, at] of [[throwing, 'options.policy'], [{ detectors: proxy }, 'options.detectors'], [{ policy: trap }, 'options.policy']] as const) {
      for (const make of [() => new LoopDetector(options).dispose(), () => new LoopEngine(options).close()]) {
        let caught: unknown;
        try {
          make();
        } catch (e) {
          caught = e;
        }
        expect(caught).toBeInstanceOf(OptionTypeError);
        expect((caught as OptionTypeError).message).toMatch(new RegExp(`^${at.replace('.', '\\.')} could not be read: `));
      }
    }
  });

  it('should make a LiveGuard or a LoopPool whose options cannot be read an OptionTypeError', async () => {
    const boom = { get failClosed(): never { throw new Error('getter boom'); } };
    expect(() => new LiveGuard(boom)).toThrow(OptionTypeError);
    expect(() => new LiveGuard(boom)).toThrow(/^options could not be read: getter boom$/);
    expect(() => new LoopPool({ get workers(): never { throw new Error('getter boom'); } })).toThrow(/^options\.workers could not be read: getter boom$/);
    let reads = 0;
    const guard = new LiveGuard({ get failClosed() { return reads++ === 0; } });
    expect(reads).toBe(1);
    guard.engine.close();
  });

  it('should refuse a __proto__ key of a config at every level, with a preset as without one', () => {
    for (const preset of [undefined, 'balanced', 'hand-tuned', 'aggressive']) {
      const p = preset === undefined ? '' : `"preset":"${preset}",`;
      expect(() => configOptions(JSON.parse(`{${p}"policy":{"__proto__":{"cooldown":5}}}`))).toThrow(/options\.policy\.__proto__ is not a known option/);
      expect(() => configOptions(JSON.parse(`{${p}"detectors":{"__proto__":{"exactRepeat":false}}}`))).toThrow(/options\.detectors\.__proto__ is not a known option/);
      expect(() => configOptions(JSON.parse(`{${p}"detectors":{"exactRepeat":{"__proto__":{"threshold":1}}}}`))).toThrow(/options\.detectors\.exactRepeat\.__proto__ is not a known option/);
      expect(() => configOptions(JSON.parse(`{${p}"__proto__":{"policy":{}}}`))).toThrow(/config\.__proto__ is not a known option/);
      expect(() => configOptions(JSON.parse(`{${p}"constructor":{"prototype":{"polluted":1}}}`))).toThrow(/config\.constructor is not a known option/);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).cooldown).toBeUndefined();
    expect(({} as Record<string, unknown>).exactRepeat).toBeUndefined();
  });
});
