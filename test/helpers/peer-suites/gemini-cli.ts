/**
 * Gemini CLI's loop detection suite as loopwatch cases: google-gemini/gemini-cli
 * packages/core/src/services/loopDetectionService.test.ts (LoopDetectionService: 5 identical tool call
 * requests in a row, or a 50-character chunk of streamed content repeated 10 times close together; code
 * fences, tables, list items, headings, quotes and dividers reset or skip the content check). Gemini CLI
 * stops the turn when it finds a loop, so its loops must be broken.
 *
 * Tool calls carry no outcome: the service sees the model's call requests, before they run.
 *
 * Left out: 'should not detect a loop when disabled for session', 'should stop reporting a loop if disabled
 * after detection', 'should skip loop detection if disabled in config' (switches of the peer, not
 * behaviour); the 'LoopDetectionService LLM Checks' block (a model asked after 30 turns whether the session
 * is unproductive: no call or text pattern to replay).
 */
import { type PeerCase, type PeerStep, call, randomText, say, times } from '../peer-cases.js';
import { seededRandom } from '../../../src/fingerprint/seeded-random.js';

const FILE = 'google-gemini/gemini-cli packages/core/src/services/loopDetectionService.test.ts';
const TOOL_THRESHOLD = 5;
const CONTENT_THRESHOLD = 10;
const CHUNK = 50;

/** The suite's repeated content: one sentence written over and over, cut at `length` characters. */
function repetitive(id: number, length: number): string {
  const base = `This is a unique sentence, id=${id}. `;
  return base.repeat(Math.ceil(length / base.length)).slice(0, length);
}

const same = (): PeerStep => call('testTool', { param: 'value' });
const chunk = repetitive(1, CHUNK);
const loop = (mirrors: string, steps: PeerStep[]): PeerCase => ({ mirrors: `${FILE}: "${mirrors}"`, loop: true, peerStops: true, steps });
const fine = (mirrors: string, steps: PeerStep[]): PeerCase => ({ mirrors: `${FILE}: "${mirrors}"`, loop: false, peerStops: false, steps });

const rand = seededRandom(27);

/** Gemini CLI's cases, in the order of its test file. */
export const GEMINI_CLI_CASES: readonly PeerCase[] = [
  // Tool Call Loop Detection
  fine('should not detect a loop for fewer than TOOL_CALL_LOOP_THRESHOLD identical calls', times(TOOL_THRESHOLD - 1, same())),
  loop('should detect a loop on the TOOL_CALL_LOOP_THRESHOLD-th identical call', times(2 * TOOL_THRESHOLD, same())),
  loop('should detect a loop on subsequent identical calls', times(2 * TOOL_THRESHOLD + 1, same())),
  fine('should not detect a loop for different tool calls', times(TOOL_THRESHOLD - 2, call('testTool', { param: 'value1' }), call('testTool', { param: 'value2' }), call('anotherTool', { param: 'value1' }))),
  loop('should not reset tool call counter for other event types', [...times(TOOL_THRESHOLD - 1, same()), say('Let me call it once more.\n'), ...times(TOOL_THRESHOLD + 1, same())]),
  // Content Loop Detection
  fine('should not detect a loop for random content', Array.from({ length: 1000 }, () => say(randomText(rand, 10)))),
  loop('should detect a loop when a chunk of content repeats consecutively', times(2 * CONTENT_THRESHOLD, say(chunk))),
  fine('should not detect a loop for a list with a long shared prefix', [say(Array.from({ length: 15 }, (_, i) => `- projects/my-google-cloud-project-12345/locations/us-central1/services/${i}\n`).join(''))]),
  fine('should not detect a loop if repetitions are very far apart', Array.from({ length: CONTENT_THRESHOLD }, () => [say(chunk), say(randomText(rand, 2000))]).flat()),
  loop('should detect a loop with longer repeating patterns (e.g. ~150 chars)', times(2 * (CONTENT_THRESHOLD + 20), say(repetitive(1, 150)))),
  loop('should detect the specific user-provided loop example', times(2 * (CONTENT_THRESHOLD + 20), say("I will not output any text.\n  I will just end the turn.\n  I am done.\n  I will not do anything else.\n  I will wait for the user's next command.\n"))),
  loop('should detect the second specific user-provided loop example', times(2 * (CONTENT_THRESHOLD + 20), say('I have added all the requested logs and verified the test file. I will now mark the task as complete.\n  '))),
  loop('should detect a loop of alternating short phrases', times(2 * CONTENT_THRESHOLD * 10, say('Thinking... Done. '))),
  loop('should detect a loop of repeated complex thought processes', times(2 * (CONTENT_THRESHOLD + 20), say('I need to check the file. The file does not exist. I will create the file. '))),
  // Content Loop Detection with Code Blocks
  fine('should not detect a loop when repetitive content is inside a code block', [say('```\n'), ...times(CONTENT_THRESHOLD, say(chunk)), say('\n```')]),
  fine('should not detect loops when content transitions into a code block', [...times(CONTENT_THRESHOLD - 2, say(chunk)), say('```javascript\n'), ...times(CONTENT_THRESHOLD, say(chunk))]),
  fine('should skip loop detection when already inside a code block', [say('Here is some code:\n```\n'), ...times(CONTENT_THRESHOLD + 5, say(chunk))]),
  fine('should correctly track inCodeBlock state with multiple fence transitions', [say('Normal text '), say('```\n'), ...times(5, say(chunk)), say('```\n'), say('```python\n')]),
  loop('should detect a loop when repetitive content is outside a code block', [say('```'), say('\nsome code\n'), say('```'), ...times(2 * CONTENT_THRESHOLD, say(chunk))]),
  fine('should handle content with multiple code blocks and no loops', [say('```\ncode1\n```'), say('\nsome text\n'), say('```\ncode2\n```')]),
  loop('should handle content with mixed code blocks and looping text', [say('```'), say('\ncode1\n'), say('```'), ...times(2 * CONTENT_THRESHOLD, say(chunk))]),
  fine('should not detect a loop for a long code block with some repeating tokens', [say('```\n'), ...times(20, say('for (let i = 0; i < 10; i++) { console.log(i); }')), say('\n```')]),
  fine('should reset tracking when a code fence is found', [...times(CONTENT_THRESHOLD - 1, say(chunk)), say('```'), ...times(CONTENT_THRESHOLD, say(chunk))]),
  fine('should reset tracking when a table is detected', [...times(CONTENT_THRESHOLD - 1, say(chunk)), say('| Column 1 | Column 2 |'), ...times(CONTENT_THRESHOLD - 1, say(chunk))]),
  fine('should reset tracking when a list item is detected', [...times(CONTENT_THRESHOLD - 1, say(chunk)), say('* List item'), ...times(CONTENT_THRESHOLD - 1, say(chunk))]),
  fine('should reset tracking when a heading is detected', [...times(CONTENT_THRESHOLD - 1, say(chunk)), say('## Heading'), ...times(CONTENT_THRESHOLD - 1, say(chunk))]),
  fine('should reset tracking when a blockquote is detected', [...times(CONTENT_THRESHOLD - 1, say(chunk)), say('> Quote text'), ...times(CONTENT_THRESHOLD - 1, say(chunk))]),
  ...['* item', '- item', '+ item', '1. item', '42. item'].map((item, i) =>
    fine(`should reset tracking for various list item formats (${item})`, [...times(CONTENT_THRESHOLD - 1, say(chunk)), say(`\n${item}`), ...times(CONTENT_THRESHOLD - 1, say(repetitive(i + 100, CHUNK)))]),
  ),
  // Reset Functionality
  fine('tool call should reset content count', [...times(9, say('Some content.')), call('testTool'), say('Fresh content.')]),
  // Divider Content Detection
  fine('should not detect a loop for repeating divider-like content', times(CONTENT_THRESHOLD + 5, say('-'.repeat(CHUNK)))),
  // Iterative Loop State: the loop goes on after the first detection (the model was told, and called it again)
  loop('should correctly transition from Strike 1 to Strike 2', times(2 * TOOL_THRESHOLD, same())),
];
