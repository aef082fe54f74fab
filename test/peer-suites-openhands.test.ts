/**
 * OpenHands' stuck detector tests (All-Hands-AI/OpenHands tests/unit/test_is_stuck.py), replayed through
 * loopwatch one-phase and two-phase with the default policy: test/helpers/peer-suites/openhands.ts.
 */
import { peerSuiteTests } from './helpers/peer-suite-test.js';
import { OPENHANDS_CASES } from './helpers/peer-suites/openhands.js';

peerSuiteTests('OpenHands', OPENHANDS_CASES);
