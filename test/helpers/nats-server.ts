/**
 * The real nats-server of the NATS tests (bench/nats-server.ts): `natsServerBinary` is null when none is
 * installed, and then the NATS tests skip, saying so loudly.
 */
import { natsServerBinary } from '../../bench/nats-server.js';

export { type NatsServer, natsServerBinary, startNatsServer } from '../../bench/nats-server.js';

if (natsServerBinary === null) {
  process.stderr.write('\n*** NATS TESTS SKIPPED: no nats-server >= 2.10 found (run: bash scripts/install-nats-server.sh) ***\n\n');
}
