/**
 * hostile6: where loopwatch quotes what it was sent in a message (a hook payload that is not JSON, a labels
 * line, a serve path or `Host`, a hook route's `Loopwatch-Unchecked` header, a NATS `Loopwatch-Op`), the
 * quote is cut by `cutText` (never inside a secret) and V8's excerpt of bad JSON is dropped, so redaction,
 * which comes later, is handed whole secrets. Before: `slice(0, n)` cut a GitHub token after ten
 * characters, which no rule knows any more, and `JSON.parse`'s message quoted the first ten characters of
 * a key (`Unexpected token 'g', "ghp_A1b2C3"... is not valid JSON`): both printed part of the key.
 */
import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLabels } from '../src/eval/labels.js';
import { parsePayload } from '../src/hooks/hook-payload.js';
import { uncheckedHeader } from '../src/serve/hook-routes.js';
import { HttpRefusal } from '../src/serve/http-io.js';
import { type RouteContext, route } from '../src/serve/http-routes.js';
import { readCallMessage } from '../src/serve/nats/call-message.js';
import { AllowedHosts } from '../src/serve/request-origin.js';
import { redactSecrets } from '../src/text/redact.js';
import { tempDir } from './helpers/cli.js';
import { shownPart } from './helpers/secret-shapes.js';
import { thrown } from './helpers/thrown.js';

const KEY = 'ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const SECRET = { name: 'GitHub token', text: KEY, hidden: KEY };

/** What a person or agent reads of `message`: redacted, as every printer does last. */
const shown = (message: string): string | null => shownPart(redactSecrets(message), SECRET);

/** `key` placed so that a cut at `at` falls ten characters into it (after `=`, where a key is known). */
const across = (at: number, before = 'a'): string => `${before.repeat(at - 11)}=${KEY}`;

/** The message of what `run` throws (fails the test when it does not throw). */
function thrownMessage(run: () => unknown): string {
  const e = thrown(run);
  if (e === undefined) throw new Error('expected a throw');
  return (e as Error).message;
}

describe('quoted input is cut before a secret, never inside one', () => {
  it("should not quote V8's excerpt of a hook payload that is not JSON", () => {
    for (const text of [KEY, `x ${KEY}`, `{"a":${KEY}}`]) {
      const message = thrownMessage(() => parsePayload(text));
      expect(message).toMatch(/not JSON/);
      expect(shown(message), message).toBeNull();
    }
  });

  it("should not quote V8's excerpt of a labels line that is not JSON", () => {
    const file = join(tempDir(), 'labels.jsonl');
    writeFileSync(file, `${KEY}\n{"session":${KEY}}\n`);
    const { issues } = readLabels(file);
    expect(issues.length).toBeGreaterThanOrEqual(2);
    for (const issue of issues) expect(shown(JSON.stringify(issue)), JSON.stringify(issue)).toBeNull();
  });

  it("should cut a hook route's Loopwatch-Unchecked reason before a key that runs across 400", () => {
    const header = uncheckedHeader(across(400));
    expect(header.length).toBeLessThanOrEqual(400);
    expect(shown(header), header).toBeNull();
  });

  it('should cut the path of a 404 before a key that runs across 120', async () => {
    const req = { url: `/${across(119, 'p')}`, method: 'GET', headers: {} } as unknown as IncomingMessage;
    const refusal = await route(req, {} as ServerResponse, {} as RouteContext).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refusal).toBeInstanceOf(HttpRefusal);
    expect(shown((refusal as HttpRefusal).message), (refusal as HttpRefusal).message).toBeNull();
  });

  it('should cut a Host or Origin refused before a key that runs across 100', () => {
    const hosts = new AllowedHosts('127.0.0.1');
    for (const headers of [{ host: across(99, 'h') }, { host: 'localhost', origin: `https://${across(99 - 8, 'o')}` }]) {
      const r = hosts.refusal({ headers } as unknown as IncomingMessage);
      expect(r).toBeInstanceOf(HttpRefusal);
      expect(shown(r?.message ?? ''), r?.message).toBeNull();
    }
  });

  it('should cut a NATS Loopwatch-Op before a key that runs across 40', () => {
    const m = readCallMessage('s', new Uint8Array(), across(39, 'o'));
    expect(m.kind).toBe('invalid');
    const message = m.kind === 'invalid' ? m.error.message : '';
    expect(shown(message), message).toBeNull();
  });
});
