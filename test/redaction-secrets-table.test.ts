/**
 * No secret shows in anything loopwatch prints (issue 13, item 10): a table of secret shapes x placements
 * (args, result, error, agent text, tool name) x outputs (verdicts: message, pattern, chunk, unit, signals;
 * published events; every CLI output: scan summary, --json, --jsonl, explain text and --json, and the
 * stderr lines about skipped input; serve's answers and refusals). Each secret is placed at several offsets, so the cuts of previews and
 * excerpts (80 characters of args, 100 of an error, 80 of a chant, 256 of a tool name) fall before, inside
 * and after it: a cut made before redaction showed the first half of keys, JWT headers and URL passwords.
 * A cell passes when no 8 characters in a row of the secret's hidden part show.
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LoopDetector, ServeServer } from '../src/index.js';
import type { ToolEvent, Verdict } from '../src/index.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { tempDir, writeJsonl } from './helpers/cli.js';
import { post } from './helpers/http.js';
import { SECRET_SHAPES, type SecretShape, shownPart } from './helpers/secret-shapes.js';

const CHANTING = { maxPeriod: 400, threshold: 4, minLength: 100 };
const three = (e: ToolEvent): ToolEvent[] => [e, e, e];

/** Where a secret goes in a call, and how many characters of that place a verdict shows before its cut. */
const PLACEMENTS = {
  args: { shown: 71, events: (t: string) => three({ tool: 'run', args: { cmd: t } }) },
  result: { shown: 159, events: (t: string) => three({ tool: 'read', args: { path: 'a.txt' }, result: t }) },
  error: { shown: 99, events: (t: string) => three({ tool: 'deploy', args: { env: 'prod' }, error: t }) },
  text: { shown: 79, events: (t: string) => [{ tool: 'think', args: {}, text: `${t} and then I try it all again. `.repeat(6) }] },
  tool: { shown: 255, events: (t: string) => three({ tool: t, args: {} }) },
} as const;
type Placement = keyof typeof PLACEMENTS;

/** Offsets that put a cut `shown` characters in after a secret of `n` characters, inside it every `step`, and before it. */
function offsets(shown: number, n: number, step = 3): number[] {
  const out = new Set([0, shown + 2]);
  for (let k = 3; k <= n + 3; k += step) if (shown >= k) out.add(shown - k);
  return [...out];
}

/** The secret after `pad` characters of filler (dots: no letter or digit to join the secret's first word). */
const padded = (s: SecretShape, pad: number): string => '.'.repeat(pad) + s.text;

describe('secrets in verdicts and published events', () => {
  for (const placement of Object.keys(PLACEMENTS) as Placement[]) {
    for (const s of SECRET_SHAPES) {
      it(`should not show a ${s.name} placed in the ${placement}, at any offset, in either engine`, async () => {
        const p = PLACEMENTS[placement];
        for (const engine of ['wasm', 'reference'] as const) {
          for (const pad of offsets(p.shown, s.text.length)) {
            const published: Verdict[] = [];
            const d = new LoopDetector({ engine, detectors: { chanting: CHANTING }, onDetection: (v) => published.push(v) });
            d.subscribe((v) => published.push(v));
            const verdicts = p.events(padded(s, pad)).map((e) => d.check(e)).filter((v): v is Verdict => v !== null);
            expect(verdicts.length, `${engine}, offset ${pad}: a verdict`).toBeGreaterThan(0);
            const out = JSON.stringify([verdicts, published]);
            expect(shownPart(out, s), `${engine}, offset ${pad}: ${out.slice(0, 600)}`).toBeNull();
          }
        }
      });
    }
  }

  it('should show every secret whole when redaction is off (the table would see a leak)', async () => {
    for (const s of SECRET_SHAPES) {
      const d = new LoopDetector({ redactSecrets: false });
      const v = PLACEMENTS.tool.events(s.text).map((e) => d.check(e))[2];
      expect(shownPart(JSON.stringify(v), s), s.name).not.toBeNull();
    }
  });
});

describe('secrets in every CLI output', () => {
  const dir = tempDir();
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ detectors: { chanting: CHANTING } }));
  // a file per placement, one session: each secret at offsets every 9 characters (the library's table has
  // every 3: the cut is the same code), three calls in a row (a verdict each time)
  const files = new Map<string, string>();
  for (const placement of Object.keys(PLACEMENTS) as Placement[]) {
    const p = PLACEMENTS[placement];
    const lines: unknown[] = [];
    for (const s of SECRET_SHAPES) {
      for (const pad of offsets(p.shown, s.text.length, 9)) for (const e of p.events(padded(s, pad))) lines.push({ session: placement, ...e });
    }
    files.set(placement, writeJsonl(dir, `${placement}.jsonl`, lines));
  }
  // lines the readers skip, each quoting a secret: a field of the wrong type, and JSON broken beside it
  const bad: string[] = [];
  for (const s of SECRET_SHAPES) {
    bad.push(JSON.stringify({ session: 'bad', tool: 'run', step: s.text }));
    bad.push(JSON.stringify({ session: 'bad', tool: 'run', round: `${'.'.repeat(30)}${s.text}` }));
    bad.push(`{"session": "bad", "tool": "run", "args": ${s.text.replace(/\n/g, ' ')} }`);
    bad.push(`{"session": "bad", "tool": "run", "args": {"cmd": "${'.'.repeat(20)}"}, ${s.text.replace(/\n/g, ' ')}`);
  }
  const badFile = writeJsonl(dir, 'bad.jsonl', [{ session: 'bad', tool: 'run', args: {} }, ...bad]);

  /** Asserts no secret shows in what a run printed. */
  const clean = (what: string, out: string): void => {
    for (const s of SECRET_SHAPES) expect(shownPart(out, s), `${what}: ${s.name}`).toBeNull();
  };

  it('should show no secret in the scan summary, --json or --jsonl, nor on stderr', async () => {
    for (const flags of [[], ['--json'], ['--jsonl']]) {
      const r = await loopwatchInProcess(['scan', ...files.values(), badFile, '--config', config, '--workers', '1', '--no-progress', ...flags]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout.length).toBeGreaterThan(100);
      expect(r.stderr).toContain('skipped (bad-record)');
      expect(r.stderr).toContain('skipped (invalid-json)');
      clean(`scan ${flags.join(' ')} stdout`, r.stdout);
      clean(`scan ${flags.join(' ')} stderr`, r.stderr);
    }
  }, 180_000); // three scans in this process now (vitest's timer runs): 32 s at load ~27

  it('should show no secret in explain, as text or --json, nor on stderr', async () => {
    for (const session of [...Object.keys(PLACEMENTS), 'bad']) {
      for (const flags of [[], ['--json']]) {
        const r = await loopwatchInProcess(['explain', session, files.get(session) ?? badFile, '--config', config, '--format', 'events', ...flags]);
        expect(r.stdout, r.stderr).toContain(session === 'bad' ? 'run' : 'verdict');
        clean(`explain ${session} ${flags.join(' ')} stdout`, r.stdout);
        clean(`explain ${session} ${flags.join(' ')} stderr`, r.stderr);
      }
    }
  }, 180_000); // 12 explain runs (processes until s26: 8.7 s on a fresh clone at load ~3.5, 80.7 s at load 10-27, past the default 60 s)

  it('should show them as they are with --no-redact', async () => {
    const r = await loopwatchInProcess(['explain', 'tool', files.get('tool') as string, '--config', config, '--json', '--no-redact']);
    const s = await loopwatchInProcess(['scan', badFile, '--no-redact', '--workers', '1', '--no-progress']);
    for (const secret of SECRET_SHAPES) expect(shownPart(r.stdout, secret), secret.name).not.toBeNull();
    expect(SECRET_SHAPES.filter((secret) => shownPart(s.stderr, secret) !== null).length).toBeGreaterThan(SECRET_SHAPES.length / 2);
  });
});

describe('secrets in serve responses', () => {
  it('should show no secret in verdicts, call errors or refusals', async () => {
    const server = await ServeServer.start({ port: 0 });
    try {
      const bodies: unknown[] = [];
      for (const [i, s] of SECRET_SHAPES.entries()) {
        for (const placement of ['args', 'error', 'tool'] as const) {
          for (const e of PLACEMENTS[placement].events(padded(s, 40))) bodies.push((await post(`${server.url}/v1/check`, { session: `${placement}-${i}`, ...e })).body);
        }
        bodies.push((await post(`${server.url}/v1/check`, { session: 'bad', tool: 'run', step: s.text })).body);
        bodies.push((await post(`${server.url}/v1/check`, `{"session": "bad", "tool": "run", "args": ${s.text.replace(/\n/g, ' ')} }`)).body);
        bodies.push((await post(`${server.url}/v1/check/batch`, { calls: [{ session: 'ok', tool: 'a' }, { session: 'bad', tool: 'run', round: s.text }] })).body);
      }
      const out = JSON.stringify(bodies);
      expect(out).toContain('"verdict":{');
      expect(out).toContain('bad_json');
      for (const s of SECRET_SHAPES) expect(shownPart(out, s), s.name).toBeNull();
    } finally {
      await server.stop();
    }
  });
});
