/**
 * The main job until the CLI exists: replays a recorded session through a default LoopDetector and prints,
 * call by call, what loopwatch says. Replays the built-in sample session, or an events JSONL file given
 * as the first argument (one `{tool, args, result?, error?, text?, step?}` per line; other fields ignored).
 *
 *   npm start                 the built-in session
 *   npm start -- run.jsonl    a recorded session of your own
 */
import { readFileSync } from 'node:fs';
import { LoopDetector } from '../session/loop-detector.js';
import { previewCall } from '../state/call-log.js';
import type { ToolEvent, Verdict } from '../types.js';
import { SAMPLE_SESSION } from './sample-session.js';

function load(path: string): { events: ToolEvent[]; skipped: number } {
  const events: ToolEvent[] = [];
  let skipped = 0;
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        const e = JSON.parse(line) as ToolEvent;
        if (typeof e !== 'object' || e === null || typeof e.tool !== 'string') throw new Error('no "tool" name');
        events.push(e);
      } catch (err) {
        skipped++;
        console.error(`${path}:${i + 1}: skipped: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
  return { events, skipped };
}

function cell(s: string, n: number): string {
  return s.length > n ? s.slice(0, n - 1) + '…' : s.padEnd(n);
}

function describeVerdict(v: Verdict | null): string {
  if (v === null) return '';
  return `${v.action.toUpperCase().padEnd(5)} ${v.kind} (${v.confidence.toFixed(2)}, since #${v.loopStart}, ${v.recommended})`;
}

const file = process.argv[2];
const { events, skipped } = file === undefined ? { events: [...SAMPLE_SESSION], skipped: 0 } : load(file);
const detector = new LoopDetector({ sessionId: file ?? 'built-in sample session' });
console.log(`loopwatch: replaying ${events.length} calls of ${file ?? 'the built-in sample session'} with the default policy\n`);
console.log(`${'#'.padStart(3)}  ${cell('call', 58)}  ${cell('outcome', 24)}  verdict`);
let firstBreak: Verdict | null = null;
let invalid = 0;
events.forEach((e, i) => {
  let v: Verdict | null;
  try {
    v = detector.check(e);
  } catch (err) {
    invalid++;
    console.error(`call ${i}: not checked: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  const outcome = e.error !== undefined ? `error: ${String(e.error)}` : e.result === undefined ? '' : String(typeof e.result === 'string' ? e.result : JSON.stringify(e.result));
  console.log(`${String(i).padStart(3)}  ${cell(previewCall(e.tool, e.args).replace(/\s+/g, ' '), 58)}  ${cell(outcome.replace(/\s+/g, ' '), 24)}  ${describeVerdict(v)}`);
  if (v !== null && v.action === 'break' && firstBreak === null) firstBreak = v;
});
const s = detector.stats();
console.log(`\n${s.checks} calls checked, ${s.detections} verdicts (${Object.entries(s.byKind).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}), ` +
  `${s.byAction.warn} warn, ${s.byAction.ask} ask, ${s.byAction.break} break; ${s.tolerated} signals tolerated as progress.`);
if (firstBreak !== null) console.log(`\nFirst break, as the model would read it:\n${(firstBreak as Verdict).message}`);
if (skipped + invalid > 0) {
  console.error(`${skipped + invalid} lines skipped`);
  process.exitCode = 1;
}
