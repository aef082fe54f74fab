/**
 * What agents say beside their tool calls: short, varied reasoning for ordinary steps, and the phrases a
 * degenerating model chants (the same sentence over and over, within one output and across outputs).
 */
import type { AgentStyle } from './truth.js';
import type { Rng } from './random.js';

const CODING_THOUGHTS = [
  'Let me look at how {x} is implemented.',
  'The failure points at {x}; checking the surrounding code.',
  'I should confirm my reading of {x} before editing.',
  'Next, {x}.',
  'That narrows it down. Now {x}.',
  'Looking for other callers of {x}.',
  'Running the tests to see where we stand after changing {x}.',
  'OK, {x} looks right. Moving on.',
];

const SUPPORT_THOUGHTS = [
  'The customer is asking about {x}.',
  'Let me check {x} before replying.',
  'I have what I need about {x}; replying now.',
  'Checking the policy on {x}.',
  'Verifying {x} with the order system.',
  'Next: {x}.',
];

/** Sentences models fall into repeating, by style. */
export const CHANT_PHRASES: Readonly<Record<AgentStyle, readonly string[]>> = Object.freeze({
  coding: [
    'Let me run the tests again to verify the fix.',
    'Wait, I think the issue is in the timezone handling.',
    'I need to check the parse function one more time.',
    'Actually, let me reconsider the approach here.',
    'The test is still failing, so let me look at it again.',
  ],
  support: [
    'I apologize for the inconvenience.',
    'Let me check the order status for you.',
    'Thank you for your patience while I look into this.',
    'I understand your frustration and I am here to help.',
    'Let me look into this for you right away.',
  ],
});

/** A short reasoning line about `subject`, or undefined (about half of the calls say nothing). */
export function thought(rng: Rng, style: AgentStyle, subject: string): string | undefined {
  if (rng.chance(0.5)) return undefined;
  return rng.pick(style === 'coding' ? CODING_THOUGHTS : SUPPORT_THOUGHTS).replace('{x}', subject);
}

/** Degenerate output: `phrase` said `times` times back to back, after an optional ordinary lead-in. */
export function chant(phrase: string, times: number, lead?: string): string {
  const body = Array.from({ length: times }, () => phrase).join(' ');
  return lead === undefined ? body : `${lead} ${body}`;
}
