/**
 * Gemini CLI's loop detection tests (google-gemini/gemini-cli loopDetectionService.test.ts), replayed through
 * loopwatch one-phase and two-phase with the default policy: test/helpers/peer-suites/gemini-cli.ts.
 */
import { peerSuiteTests } from './helpers/peer-suite-test.js';
import { GEMINI_CLI_CASES } from './helpers/peer-suites/gemini-cli.js';

peerSuiteTests('Gemini CLI', GEMINI_CLI_CASES);
