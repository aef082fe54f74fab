/**
 * A LiveGuard's own options are checked as the engine checks its (newuser29): before, `failClosed: 'true'`
 * (a string from an environment variable) was read as false, so the guard failed open in silence, an
 * `onInternalError` that is no function lost every report (calling it threw, and that was swallowed), and a
 * misspelt `failClose` was refused with a list of the engine's options that named neither guard option.
 */
import { describe, expect, it } from 'vitest';
import { ErrorCode, LiveGuard, OptionTypeError } from '../src/index.js';
import { thrown } from './helpers/thrown.js';

/** The error `make` throws, or undefined. */
const thrownError = (make: () => unknown) => thrown(make) as (Error & { code?: string; option?: string }) | undefined;

describe('LiveGuard options', () => {
  it('should refuse a failClosed that is not a boolean, naming the option and what it received', () => {
    for (const [value, shown] of [['true', '"true" (string)'], [1, '1 (number)'], [null, 'null']] as const) {
      const e = thrownError(() => new LiveGuard({ failClosed: value as unknown as boolean }));
      expect(e).toBeInstanceOf(OptionTypeError);
      expect(e?.code).toBe(ErrorCode.OPTION_TYPE);
      expect(e?.option).toBe('options.failClosed');
      expect(e?.message).toBe(`options.failClosed must be a boolean, received ${shown}`);
    }
  });

  it('should refuse an onInternalError that is not a function', () => {
    const e = thrownError(() => new LiveGuard({ onInternalError: 42 as unknown as () => void }));
    expect(e).toBeInstanceOf(OptionTypeError);
    expect(e?.message).toBe('options.onInternalError must be a function, received 42 (number)');
  });

  it("should name the guard's own options when one is misspelt", () => {
    const e = thrownError(() => new LiveGuard({ failClose: true } as never));
    expect(e?.code).toBe(ErrorCode.UNKNOWN_OPTION);
    expect(e?.message).toMatch(/^options\.failClose is not a known option \(did you mean "failClosed"\?\); known options of options: .*, failClosed, onInternalError$/);
  });

  it('should keep its valid options working: fail closed denies an unreadable proposal, fail open allows it', () => {
    const reports: string[] = [];
    const closed = new LiveGuard({ failClosed: true, onInternalError: (err) => reports.push(err.message) });
    expect(closed.propose('s', { tool: 42 } as never).action).toBe('deny');
    expect(reports).toEqual(['event.tool must be a non-empty string, received 42 (number)']);
    const open = new LiveGuard({ failClosed: false, onInternalError: () => undefined });
    expect(open.propose('s', { tool: 42 } as never)).toMatchObject({ action: 'allow', failedOpen: true });
    const plain = new LiveGuard({ failClosed: undefined, maxSessions: 10 });
    expect(plain.propose('s', { tool: 'bash', args: 'ls' }).action).toBe('allow');
    for (const g of [closed, open, plain]) g.close();
  });
});
