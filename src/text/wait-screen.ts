/**
 * The twin of the engine module's screen of a short result head for a wait's and an empty mailbox's words
 * (assembly/report-scan.ts's SCAN_MAY_WAIT, issue 29), and its specification: every text still-waiting.ts's
 * saysStillWaiting or empty-inbox.ts's saysInboxEmpty says yes of holds one of these words (ASCII, any case:
 * without the `u` flag, `i` folds no character past ASCII to an ASCII letter) or an ESC (saysStillWaiting
 * reads the text without its colour codes, which may have split a word). The module says whether a head of at
 * most HEAD_WAIT_UNITS units holds one (result-head.ts's HEAD_MAY_WAIT), and result-reading.ts's readHead asks
 * neither expression of a head without.
 */

/** The words of still-waiting.ts's WAITING_WORDS (their common part) and of empty-inbox.ts's EMPTY, or an ESC. */
export const WAIT_SCREEN = /pending|progress|processing|provisioning|queued|running|ready|waiting|scheduled|starting|initiali|messages|mail|empty|\x1b/i;

/** Whether `head` may say the work is still under way or a mailbox is empty (false: neither reading can say yes). */
export function mayWait(head: string): boolean {
  return WAIT_SCREEN.test(head);
}
