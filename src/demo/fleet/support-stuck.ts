/**
 * Customer-service agents stuck without repeating a call exactly: the same refusal whatever the args
 * (`dead_end`), order ids or emails retyped with one character changed (`similar_args`), one failed
 * knowledge-base search reworded (`semantic`), different lookups with the same empty answer
 * (`result_repeat`), and text chanting an apology while the calls go on (`chanting`). Each maker returns
 * exactly `count` calls.
 */
import type { ToolEvent } from '../../types.js';
import { CHANT_PHRASES, chant } from './agent-text.js';
import { FILLERS, paraphrase, typo, varied } from './loop-kit.js';
import type { Rng } from './random.js';
import type { SupportAgent } from './support-agent.js';
import { lookupMissing, refund, searchKb, transferToHuman } from './support-tools.js';
import type { Block } from './truth.js';

const QUEUES = ['billing', 'returns', 'shipping', 'orders', 'escalations', 'tier2', 'supervisors', 'vip'];
const REASONS = ['damaged on arrival', 'late delivery', 'customer request', 'goodwill', 'item not as described', 'duplicate charge'];

/** The same refusal, whatever the args. */
export function supportDeadEnd(a: SupportAgent, rng: Rng, count: number): Block {
  const s = a.scene;
  if (rng.chance(0.5)) {
    return {
      variant: 'refunds-over-the-limit',
      events: varied(count, () => {
        const o = rng.pick(s.orders);
        const amount = `${rng.int(20, 400)}.${String(rng.int(0, 99)).padStart(2, '0')}`;
        return refund(rng, o.id, amount, rng.pick(REASONS), `RefundDenied: amount ${amount} exceeds the limit of 50.00 for role 'tier1_agent' on order ${o.id}`);
      }),
    };
  }
  return {
    variant: 'no-human-agents-available',
    events: varied(count, () => {
      const q = rng.pick(QUEUES);
      return transferToHuman(q, `Customer ${s.customerId} (${rng.pick(['upset', 'waiting', 'asked for a manager'])}): ${s.issue.kind} on ${s.focus.id}`, 0, `NoAgentsAvailable: queue '${q}' has no agents online`);
    }),
  };
}

/** Retyped ids or emails, one character off each time, failing the same way. */
export function supportSimilarArgs(a: SupportAgent, rng: Rng, count: number): Block {
  const s = a.scene;
  if (rng.chance(0.6)) return { variant: 'order-id-typos', events: varied(count, () => lookupMissing(typo(rng, s.focus.id))) };
  return {
    variant: 'email-typos',
    events: varied(count, (): ToolEvent => {
      const email = typo(rng, s.email);
      return { tool: 'get_customer', args: { email }, error: `CustomerNotFound: no customer with email '${email}'` };
    }),
  };
}

/** One failed knowledge-base search reworded again and again (nothing found, or the same wrong article). */
export function supportSemantic(a: SupportAgent, rng: Rng, count: number): Block {
  const idea = rng.sample(a.scene.issue.words, 4);
  const wrong = [{ id: `KB-${rng.int(1000, 9999)}`, title: 'How to create an account' }];
  const nothing = rng.chance(0.7);
  return { variant: nothing ? 'paraphrased-kb-search-nothing' : 'paraphrased-kb-search-same-wrong-article', events: varied(count, () => searchKb(paraphrase(rng, idea, FILLERS.support), nothing ? [] : wrong, a.scene.kbNothing)) };
}

/** Different lookups, the same answer every time. */
export function supportResultRepeat(a: SupportAgent, rng: Rng, count: number): Block {
  const s = a.scene;
  if (rng.chance(0.5)) {
    const by = (): Record<string, string> => rng.pick<Record<string, string>>([
      { email: s.email },
      { phone: `+1-555-${rng.int(100, 999)}-${rng.int(1000, 9999)}` },
      { name: s.name },
      { placed_after: `2024-0${rng.int(1, 9)}-01` },
      { zip: String(rng.int(10000, 99999)) },
    ]);
    return { variant: 'order-searches-nothing-found', events: varied(count, () => ({ tool: 'search_orders', args: by(), result: 'No orders found matching the search criteria.' })) };
  }
  const answer = "I'm sorry, I can only answer questions about orders placed in the last 90 days.";
  const questions = [`Can order ${s.focus.id} be refunded?`, `What is the return window for ${s.focus.item}?`, 'Is a restocking fee charged?', `Why was ${s.name} charged twice?`, 'Can the delivery address be changed?', 'Which carrier ships to Alaska?'];
  return { variant: 'policy-bot-same-canned-answer', events: varied(count, () => ({ tool: 'ask_policy_bot', args: { question: rng.pick(questions) }, result: answer })) };
}

/** The agent's text repeating an apology while its calls go on. */
export function supportChanting(a: SupportAgent, rng: Rng, count: number): Block {
  const phrase = rng.pick(CHANT_PHRASES.support);
  const inOne = rng.chance(0.7);
  const events = Array.from({ length: count }, (_, k): ToolEvent => ({ ...a.step(), text: inOne ? chant(phrase, rng.int(6, 40), k === 0 ? 'Checking again.' : undefined) : phrase }));
  return { variant: inOne ? 'sentence-repeated-in-each-output' : 'same-sentence-every-call', events };
}
