/**
 * `loopwatch/nats`: the client of loopwatch's NATS JetStream service (`loopwatch serve --nats URL`, see
 * docs/service.md). `NatsCaller.connect(servers, options)` connects (with credentials and TLS files when
 * the server requires them); `check()` publishes calls of a session and waits for their verdicts,
 * `propose()` and `record()` a two-phase call's LiveDecision, `end()` ends a session. Importing this
 * module loads no NATS client: `connect()` does (the `@nats-io/*` packages, optional peer dependencies of
 * loopwatch: without them it rejects with a MissingPeerError naming the `npm install` that adds them).
 *
 * ```ts
 * import { NatsCaller } from 'loopwatch/nats';
 * const caller = await NatsCaller.connect('nats://127.0.0.1:4222');
 * const answer = await caller.check('run-1', [{ id: 'c1', tool: 'bash', args: { command: 'pytest -q' } }]);
 * ```
 */
export { ANSWER_TIMEOUT_MS, NatsCaller } from './serve/nats/nats-caller.js';
export type { MessageAnswer, NatsCallerOptions, PublishAck, PublishedCall } from './serve/nats/nats-caller.js';
export type { MessageResult } from './serve/nats/call-message.js';
export type { NatsAuthOptions } from './serve/nats/nats-auth.js';
export { inputSubject, sessionToken, verdictSubject } from './serve/nats/subjects.js';
export { AnswerTimeoutError, ClosedError, DuplicateCallError, MissingPeerError, NatsUnreachableError, NoStreamError, StoreFullError } from './errors.js';
