/**
 * Customer-service agents stuck repeating calls: the same lookup back to back (`exact_repeat`), a unit
 * of calls cycled with the same args (`cycle`), one lookup coming back every few calls (`frequency`), the
 * same eligibility answer revisited after each attempt (`state_repeat`). Each maker returns exactly
 * `count` calls, the first being the first occurrence of what repeats.
 */
import type { ToolEvent } from '../../types.js';
import { cycle, fill, recurring } from './loop-kit.js';
import type { Rng } from './random.js';
import type { SupportAgent } from './support-agent.js';
import type { Order } from './support-scene.js';
import { getCustomer, lookupOrder, searchKb, sendMessage, shippingStatus } from './support-tools.js';
import type { Block } from './truth.js';

/** The same call again and again. */
export function supportExactRepeat(a: SupportAgent, rng: Rng, count: number): Block {
  const s = a.scene;
  switch (rng.int(0, 3)) {
    case 0: return { variant: 'same-order-lookup', events: fill(count, () => lookupOrder(s.focus)) };
    case 1: {
      const q = a.query();
      const hits = rng.sample(s.articles, 1);
      return { variant: 'same-kb-search', events: fill(count, () => searchKb(q, hits)) };
    }
    case 2: return { variant: 'same-customer-lookup', events: fill(count, () => getCustomer(s)) };
    default: {
      const body = a.message();
      return { variant: 'resending-same-message', events: fill(count, () => sendMessage(rng, s, body)) };
    }
  }
}

/** A unit of two or three calls, the same args each time round. */
export function supportCycle(a: SupportAgent, rng: Rng, count: number): Block {
  const s = a.scene;
  const o = s.focus;
  switch (rng.int(0, 2)) {
    case 0: {
      const body = `Hi ${a.first}, your order ${o.id} is currently ${o.status}. I'll check again for you.`;
      return { variant: 'lookup-then-same-message', events: cycle(count, [() => lookupOrder(o), () => sendMessage(rng, s, body)]) };
    }
    case 1: {
      const q = a.query();
      return { variant: 'customer-order-kb', events: cycle(count, [() => getCustomer(s), () => lookupOrder(o), () => searchKb(q, s.articles)]) };
    }
    default: {
      const tracking = o.tracking ?? `1Z${rng.int(100000, 999999)}0000`;
      const n = rng.int(1, 4);
      return { variant: 'order-then-shipping', events: cycle(count, [() => lookupOrder(o), () => shippingStatus(tracking, n)]) };
    }
  }
}

/**
 * One lookup, with the same answer, coming back every two to four calls between other steps; or one tool
 * dominating: the same two or three orders looked up over and over in no fixed order.
 */
export function supportFrequency(a: SupportAgent, rng: Rng, count: number): Block {
  const s = a.scene;
  const other = () => a.step();
  if (rng.chance(0.25)) {
    const orders = rng.sample(s.orders, Math.min(3, s.orders.length));
    return { variant: 'same-few-orders-in-any-order', events: fill(count, (k) => lookupOrder(orders[k < orders.length ? k : rng.int(0, orders.length - 1)] as Order)) };
  }
  if (rng.chance(0.5)) return { variant: 'customer-lookup-between-steps', events: recurring(count, rng, () => getCustomer(s), other, 1, 3) };
  return { variant: 'order-lookup-between-steps', events: recurring(count, rng, () => lookupOrder(s.focus), other, 1, 3) };
}

/** The same eligibility check with the same answer after each attempt to help otherwise. */
export function supportStateRepeat(a: SupportAgent, rng: Rng, count: number): Block {
  const s = a.scene;
  const hi = Math.max(4, Math.min(20, Math.floor((count - 1) / 3)));
  const other = () => a.step();
  if (rng.chance(0.5)) {
    const check = (): ToolEvent => ({ tool: 'check_refund_eligibility', args: { order_id: s.focus.id }, result: JSON.stringify({ order_id: s.focus.id, eligible: false, reason: 'outside the 30-day return window', delivered_at: s.focus.placed }) });
    return { variant: 'refund-eligibility-after-each-attempt', events: recurring(count, rng, check, other, 4, hi) };
  }
  return { variant: 'order-status-after-each-attempt', events: recurring(count, rng, () => lookupOrder(s.focus), other, 4, hi) };
}
