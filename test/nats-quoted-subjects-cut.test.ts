/**
 * The NATS worker quotes two subjects a publisher chose, each cut at 80 characters: a reply subject it
 * refuses (its process warning) and a subject token that names no session (the error answered on the reply
 * subject). Both are cut by cutText, never inside a secret, and redacted after. Before, each was cut with
 * `slice` first, and a key running across the cut lost its end: redaction no longer knew what was left,
 * and the first 20 characters of a GitHub token were printed (hostile5).
 */
import { describe, expect, it, vi } from 'vitest';
import { headers } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { NATS_WARNING } from '../src/serve/nats/nats-warning.js';
import { REPLY_HEADER, inputSubject } from '../src/serve/nats/subjects.js';
import { natsFixture } from './helpers/nats-fixture.js';
import { natsServerBinary } from './helpers/nats-server.js';

const KEY = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
/** 60 characters before the key: a cut at 80 falls 20 characters into it. */
const PAD = 'p'.repeat(60);
const CALL = { tool: 'bash', args: { command: 'pytest' } };

describe.skipIf(natsServerBinary === null)('subjects a NATS publisher chose, quoted', () => {
  const f = natsFixture(1);

  it('should show no part of a key in the warning about a refused reply subject', async () => {
    const spy = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const h = headers();
      h.set(REPLY_HEADER, `loopwatch.${PAD}.${KEY}`);
      f.nc.publish(inputSubject('attacker'), JSON.stringify({ ...CALL, id: 'a1' }), { headers: h });
      await f.nc.flush();
      await f.caller.check('attacker', [{ ...CALL, id: 'a2' }]);
      const warnings = spy.mock.calls.filter((c) => (c[1] as unknown) === NATS_WARNING).map((c) => String(c[0]));
      const refused = warnings.filter((w) => w.includes('reply subject'));
      expect(refused).toHaveLength(1);
      expect(refused[0]).toContain(PAD);
      expect(refused[0]).not.toContain('ghp_');
      expect(refused[0]).not.toContain(KEY.slice(4, 12));
    } finally {
      spy.mockRestore();
    }
  }, 30_000);

  it('should show no part of a key in the error answering a subject token that names no session', async () => {
    const inbox = '_INBOX.cut.token';
    const answers: string[] = [];
    const sub = f.nc.subscribe(inbox, { callback: (_e, m) => void answers.push(m.string()) });
    await f.nc.flush();
    const h = headers();
    h.set(REPLY_HEADER, inbox);
    await jetstream(f.nc).publish(`loopwatch.in.${PAD}=${KEY}=zz`, JSON.stringify({ ...CALL, id: 'c1' }), { headers: h });
    for (let i = 0; i < 60 && answers.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    sub.unsubscribe();
    expect(answers).toHaveLength(1);
    const message = (JSON.parse(answers[0] as string) as { results: { error: { message: string } }[] }).results[0]?.error.message ?? '';
    expect(message).toContain(PAD);
    expect(message).not.toContain('ghp_');
    expect(message).not.toContain(KEY.slice(4, 12));
  }, 30_000);
});
