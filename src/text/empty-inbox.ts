/**
 * An agent's mailbox answering that nothing has arrived: `gt mail inbox` ("Inbox: deacon/ (0 messages, 0
 * unread) (no messages)"), "No new messages.", "Mailbox is empty". Checking it again is a poll of the world:
 * its answer changes when another agent or a person writes, not when this agent tries something else, so
 * the same empty answer each time is waiting, not a stall (read as a status under way: outcome-facts.ts).
 * Only short answers are read ({@link INBOX_LOOK} characters).
 */

/** Longest answer read, in characters. */
export const INBOX_LOOK = 300;

/** Nothing in the mailbox, in the words such tools answer with. */
const EMPTY = /(?:^|[^\w-])(?:no (?:new |unread )?(?:messages|mail)|0 (?:new |unread )?messages|(?:inbox|mailbox) (?:is )?empty)(?![\w-])/i;

/** Whether a call's answer says its mailbox holds nothing new. */
export function saysInboxEmpty(text: string): boolean {
  return text.length <= INBOX_LOOK && EMPTY.test(text);
}
