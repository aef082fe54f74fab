/**
 * isTaskNotification and startsAfresh (src/text/prompt-origin.ts): a background task's notification, which
 * Claude Code sends as a prompt though the person typed nothing, gives no fresh start; a typed prompt still
 * does, and an answer to the agent's question still does not. The transcript's origin decides when it has one,
 * else the text's leading tag, read no further than NOTIFICATION_LOOK.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answersAgent } from '../src/text/prompt-answer.js';
import { NOTIFICATION_LOOK, NOTIFICATION_TAG, isTaskNotification, startsAfresh } from '../src/text/prompt-origin.js';

/** A notification in the words Claude Code writes one (its task id and summary made up). */
const notification = (id: string): string =>
  `<task-notification>\n<task-id>${id}</task-id>\n<tool-use-id>toolu_01</tool-use-id>\n<status>completed</status>\n<summary>Background command "npm run build" finished</summary>\n</task-notification>`;

describe('isTaskNotification', () => {
  it('should take a prompt that starts with the tag as a notification, in a string or a message\'s first text part', () => {
    expect(isTaskNotification(notification('b1'))).toBe(true);
    expect(isTaskNotification(`\n  ${notification('b2')}`)).toBe(true);
    expect(isTaskNotification([{ type: 'text', text: notification('b3') }])).toBe(true);
  });

  it('should take the transcript line\'s origin.kind alone when the line has one', () => {
    expect(isTaskNotification('anything at all', { kind: 'task-notification', producer: 'session-task' })).toBe(true);
    expect(isTaskNotification(notification('b4'), { kind: 'human' })).toBe(false);
    expect(isTaskNotification(notification('b5'), { producer: 'x' })).toBe(true); // no kind: the text decides
    expect(isTaskNotification(notification('b6'), null)).toBe(true);
  });

  it('should take a typed prompt, one that only mentions the tag, or one in a later part, as no notification', () => {
    for (const p of ['fix the build', 'what does <task-notification> mean?', '', 42, undefined, null, {}, [], [{ type: 'image' }], [{ type: 'text', text: 'see this' }, { type: 'text', text: notification('b7') }]]) {
      expect(isTaskNotification(p), JSON.stringify(p)).toBe(false);
    }
  });

  it('should read no further than NOTIFICATION_LOOK characters for the tag', () => {
    expect(isTaskNotification(`${' '.repeat(NOTIFICATION_LOOK - NOTIFICATION_TAG.length)}${NOTIFICATION_TAG}`)).toBe(true);
    expect(isTaskNotification(`${' '.repeat(NOTIFICATION_LOOK - NOTIFICATION_TAG.length + 1)}${NOTIFICATION_TAG}`)).toBe(false);
  });
});

describe('startsAfresh', () => {
  it('should give a typed prompt a fresh start, and neither a notification nor an answer to the agent', () => {
    expect(startsAfresh('Now add a test for the parser.')).toBe(true);
    expect(startsAfresh('Now add a test for the parser.', { kind: 'human' })).toBe(true);
    expect(startsAfresh(notification('c1'))).toBe(false);
    expect(startsAfresh('x', { kind: 'task-notification' })).toBe(false);
    expect(startsAfresh('2')).toBe(false);
    expect(startsAfresh('yes', { kind: 'human' })).toBe(false);
  });

  it('should be answersAgent\'s decision for any prompt that is no notification (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.constantFrom(undefined, { kind: 'human' }), (p, origin) => {
        if (p.trimStart().startsWith(NOTIFICATION_TAG)) return;
        expect(startsAfresh(p, origin)).toBe(!answersAgent(p));
      }),
    );
  });

  it('should give no fresh start to any text after the tag (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }).map((s) => s.replace(/\S/gu, ' ')), fc.string({ maxLength: 200 }), (lead, rest) => {
        const p = `${lead.slice(0, NOTIFICATION_LOOK - NOTIFICATION_TAG.length)}${NOTIFICATION_TAG}${rest}`;
        expect(startsAfresh(p)).toBe(false);
        expect(startsAfresh([{ type: 'text', text: p }])).toBe(false);
      }),
    );
  });
});
