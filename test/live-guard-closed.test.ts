/**
 * newuser30: a LiveGuard used after `close()` still never throws (its calls are allowed), and says once that
 * it was closed, with a ClosedError as the engine's own use after close throws. Before, it reported "an
 * internal error; calls are allowed without loop checks until it clears", which never clears.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClosedError, ErrorCode, LiveGuard, LoopEngine } from '../src/index.js';
import { ENGINE_CLOSED_MESSAGE, GUARD_CLOSED_MESSAGE, UNREADABLE_CALL_WARNING } from '../src/engine/live-guard.js';

const call = { tool: 'bash', args: { command: 'ls' } };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('LiveGuard after close()', () => {
  it('should allow its calls and report one ClosedError saying the guard was closed', () => {
    const errors: Error[] = [];
    const g = new LiveGuard({ onInternalError: (e) => void errors.push(e) });
    g.propose('s', call);
    g.close();
    for (let i = 0; i < 3; i++) {
      expect(g.propose('s', call)).toMatchObject({ action: 'allow', failedOpen: true, verdict: null });
      expect(g.record('s', { ...call, result: 'a' })).toMatchObject({ action: 'allow', failedOpen: true });
      g.freshStart('s');
      g.end('s');
    }
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ClosedError);
    expect((errors[0] as ClosedError).code).toBe(ErrorCode.CLOSED);
    expect(errors[0]?.message).toBe(GUARD_CLOSED_MESSAGE);
  });

  it('should warn once by default that it was closed, not of an internal error that will clear', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const g = new LiveGuard();
    g.close();
    g.propose('s', call);
    g.propose('s', call);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toBe(GUARD_CLOSED_MESSAGE);
    expect(String(warn.mock.calls[0]?.[0])).not.toMatch(/until it clears/);
  });

  it('should say its engine was closed when the caller closed the engine it was given', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const engine = new LoopEngine();
    const g = new LiveGuard(engine);
    engine.close();
    expect(g.propose('s', call).failedOpen).toBe(true);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toBe(ENGINE_CLOSED_MESSAGE);
  });

  it('should say a call it could not read was allowed, not that an internal error will clear (lead, s28)', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const g = new LiveGuard();
    expect(g.propose('', call)).toMatchObject({ action: 'allow', failedOpen: true });
    expect(g.propose('s', { tool: 42 } as never)).toMatchObject({ action: 'allow', failedOpen: true });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(new RegExp(`^${UNREADABLE_CALL_WARNING.replace(/[()]/g, '\\$&')}: .*non-empty string`));
    expect(String(warn.mock.calls[0]?.[0])).not.toMatch(/internal error|until it clears/);
  });
});
