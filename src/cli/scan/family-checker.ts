/**
 * A scan's checker when the config has a `families` section (config-families.ts): one checker per option
 * set (the pooled options and each family's), built when a session of it first comes, and every session's
 * calls sent to the checker of its agent's family (the pooled one for a session of no known agent, or of a
 * family the config does not name). The agent of a session is found once, at its first call, from its file
 * and id (scan-command.ts: the label's `agent`, else the agent whose format the reader found); the session
 * is kept on that checker until it ends, so the map holds live sessions only.
 */
import type { SessionEvent } from '../../engine/loop-engine.js';
import type { LoopDetectorOptions } from '../../options/options.js';
import type { FamilyOptions } from '../../presets/config-families.js';
import type { Verdict } from '../../types.js';
import type { SessionChecker } from './session-checker.js';

/** Finds the options of the session of checker key `key` (the scan's `file\u0000session`). */
export type OptionsOfSession = (key: string) => LoopDetectorOptions;

/**
 * A checker over `families` (its pooled options and each family's): `optionsOf` picks a new session's
 * options (one of `families`' own objects), `make` builds the checker of an option set. With no family, the
 * pooled checker alone.
 */
export function familyChecker(families: FamilyOptions, optionsOf: OptionsOfSession, make: (options: LoopDetectorOptions) => SessionChecker): SessionChecker {
  if (families.families.size === 0) return make(families.pooled);
  const checkers = new Map<LoopDetectorOptions, SessionChecker>();
  const checkerOf = (options: LoopDetectorOptions): SessionChecker => {
    let c = checkers.get(options);
    if (c === undefined) {
      c = make(options);
      checkers.set(options, c);
    }
    return c;
  };
  const live = new Map<string, SessionChecker>();
  const sessionChecker = (key: string): SessionChecker => {
    let c = live.get(key);
    if (c === undefined) {
      c = checkerOf(optionsOf(key));
      live.set(key, c);
    }
    return c;
  };
  return {
    checkBatch: async (events: readonly SessionEvent[]) => {
      // each checker gets its sessions' calls in order; the verdicts are put back in the batch's order
      const parts = new Map<SessionChecker, { events: SessionEvent[]; at: number[] }>();
      events.forEach((e, i) => {
        const c = sessionChecker(e.session);
        let part = parts.get(c);
        if (part === undefined) parts.set(c, (part = { events: [], at: [] }));
        part.events.push(e);
        part.at.push(i);
      });
      const out: (Verdict | null | Error)[] = new Array<Verdict | null | Error>(events.length).fill(null);
      await Promise.all(
        [...parts].map(async ([c, part]) => {
          const got = await c.checkBatch(part.events);
          part.at.forEach((i, k) => (out[i] = got[k] ?? null));
        }),
      );
      return out;
    },
    end: async (session) => {
      const c = live.get(session);
      live.delete(session);
      if (c !== undefined) await c.end(session);
    },
    freshStart: async (session) => {
      await live.get(session)?.freshStart(session);
    },
    close: async () => {
      await Promise.all([...checkers.values()].map((c) => c.close()));
    },
  };
}
