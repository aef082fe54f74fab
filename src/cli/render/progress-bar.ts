/**
 * A one-line progress bar on a terminal: calls scanned, rate, and (when the input's size is known) the
 * share read and the time left. Redrawn at most every 100 ms; only on a TTY (the caller decides), cleared
 * before the report.
 */

/** Where the bar is drawn (stderr). */
export interface ProgressTarget {
  write(text: string): unknown;
  readonly columns?: number;
}

/** Minimum ms between redraws. */
const REDRAW_MS = 100;

/** Formats seconds as `1m05s` or `12s`. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** A progress line with rate and ETA. */
export class ProgressBar {
  private readonly started = performance.now();
  private lastDraw = 0;
  private drawn = false;

  constructor(
    private readonly out: ProgressTarget,
    /** Bytes of input in all, when known (files; not stdin). */
    private readonly totalBytes: number | null,
  ) {}

  /** Redraws if due: `calls` scanned so far, `bytes` of input read. */
  update(calls: number, bytes: number): void {
    const now = performance.now();
    if (now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? calls / seconds : 0;
    let line = `${calls.toLocaleString('en-US')} calls · ${Math.round(rate).toLocaleString('en-US')}/s`;
    if (this.totalBytes !== null && this.totalBytes > 0) {
      const share = Math.min(1, bytes / this.totalBytes);
      const width = 24;
      const full = Math.round(share * width);
      const eta = share > 0 ? (seconds * (1 - share)) / share : NaN;
      line = `[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${(share * 100).toFixed(0).padStart(3)}% · ${line} · ETA ${formatDuration(eta)}`;
    }
    const max = this.width();
    this.out.write(`\r${line.slice(0, max).padEnd(max)}`);
    this.drawn = true;
  }

  /** Characters the line may take (a terminal that reports no width counts as 80 columns). */
  private width(): number {
    const c = this.out.columns;
    return (c !== undefined && c >= 20 ? c : 80) - 1;
  }

  /** Clears the line. */
  clear(): void {
    if (!this.drawn) return;
    this.out.write(`\r${' '.repeat(this.width())}\r`);
    this.drawn = false;
  }
}
