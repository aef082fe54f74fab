/**
 * Roo Code's tool repetition tests (RooCodeInc/Roo-Code ToolRepetitionDetector.spec.ts, shared by Kilo Code
 * and Cline) and goose's RepetitionInspector test, replayed through loopwatch one-phase and two-phase with
 * the default policy: test/helpers/peer-suites/roo-code.ts.
 */
import { peerSuiteTests } from './helpers/peer-suite-test.js';
import { ROO_CODE_CASES } from './helpers/peer-suites/roo-code.js';

peerSuiteTests('Roo Code and goose', ROO_CODE_CASES);
