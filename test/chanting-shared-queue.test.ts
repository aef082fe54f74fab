/**
 * Chanting's queue of prose (the range of a text waiting for its push) is one for the thread, not four
 * fields of each detector (branch mem38: 32 B a session), and its name a getter (8 B): it holds nothing
 * between feeds, so a detector whose stream threw midway leaves none of its text to another detector's.
 */
import { describe, expect, it } from 'vitest';
import { ChantingDetector } from '../src/detectors/chanting.js';
import type { ObservedCall } from '../src/detectors/detector.js';
import { CHANTING_DEFAULTS } from '../src/options/detector-options.js';
import { TsProseStream } from '../src/text/prose-stream.js';

const call = (index: number, text: string) => ({ index, event: { tool: 't', text } }) as unknown as ObservedCall;

describe('chanting queue shared by the thread', () => {
  it('should keep no queue or name fields of its own', () => {
    const d = new ChantingDetector(CHANTING_DEFAULTS);
    d.record(call(0, 'Some prose here.\nAnd more of it.\n'));
    const own = Object.keys(d);
    for (const f of ['name', 'queued', 'queuedFrom', 'queuedTo', 'queuedLineEnd']) expect(own).not.toContain(f);
    expect(d.name).toBe('chanting');
  });

  it("should stream none of a detector's text into another's after its stream threw", () => {
    const pushed: string[] = [];
    let fail = true;
    const throwing = new ChantingDetector(CHANTING_DEFAULTS, 2 ** 30, (o) => {
      const s = new TsProseStream(o);
      const push = s.push.bind(s);
      s.push = (text, from, to, piece, limit, lineEnd) => {
        if (fail) throw new Error('stream failed');
        return push(text, from, to, piece, limit, lineEnd);
      };
      return s;
    });
    const other = new ChantingDetector(CHANTING_DEFAULTS, 2 ** 30, (o) => {
      const s = new TsProseStream(o);
      const push = s.push.bind(s);
      s.push = (text, from, to, piece, limit, lineEnd) => {
        pushed.push(text.slice(from, to));
        return push(text, from, to, piece, limit, lineEnd);
      };
      return s;
    });
    // a line, then the start of another queued when the stream is first pushed (at the second line's classification)
    expect(() => throwing.record(call(0, 'SECRET first line of prose.\nSECRET second line of prose, long enough.\nSECRET third'))).toThrow('stream failed');
    fail = false;
    other.record(call(0, 'Plain words of another session.\n'));
    expect(pushed.join('')).not.toContain('SECRET');
    expect(pushed.join('')).toContain('Plain words');
  });
});
