/** The progress bar: share read, rate and time left on one line, redrawn at most every 100 ms, cleared. */
import { describe, expect, it, vi } from 'vitest';
import { ProgressBar, formatDuration } from '../src/cli/render/progress-bar.js';

describe('ProgressBar', () => {
  it('should show the share read, the rate and the time left, within the terminal width', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const out: string[] = [];
      const bar = new ProgressBar({ write: (t: string) => out.push(t), columns: 100 }, 1000);
      vi.advanceTimersByTime(2000);
      bar.update(5000, 250);
      const line = out.at(-1) as string;
      expect(line).toMatch(/^\r\[######\.+\]  25% · 5,000 calls · 2,500\/s · ETA 6s/);
      expect(line.length).toBe(100); // "\r" + 99 characters
      bar.update(6000, 300); // within 100 ms: not redrawn
      expect(out.length).toBe(1);
      bar.clear();
      expect(out.at(-1)).toBe(`\r${' '.repeat(99)}\r`);
    } finally {
      vi.useRealTimers();
    }
  });

  it('should cut the line to a narrow terminal', () => {
    const out: string[] = [];
    new ProgressBar({ write: (t: string) => out.push(t), columns: 30 }, 10).update(1, 5);
    expect(out[0]?.length).toBe(30);
  });

  it('should show calls and rate alone when the input size is unknown (standard input)', () => {
    const out: string[] = [];
    new ProgressBar({ write: (t: string) => out.push(t) }, null).update(42, 0);
    expect(out[0]).toMatch(/^\r42 calls · [\d,]+\/s +$/);
  });

  it('should format durations', () => {
    expect(formatDuration(5.4)).toBe('5s');
    expect(formatDuration(65)).toBe('1m05s');
    expect(formatDuration(NaN)).toBe('?');
  });
});
