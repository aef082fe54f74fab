/**
 * Legitimate repetition of customer-service agents, as blocks of calls placed inside ordinary work:
 * polling a refund until it is processed, paging through the order history, looking up each of the
 * customer's orders, a lookup retried through rate limiting. None of them is a loop.
 */
import type { ToolEvent } from '../../types.js';
import type { Rng } from './random.js';
import type { SupportAgent } from './support-agent.js';
import { lookupOrder, refund, shippingStatus } from './support-tools.js';
import type { Block, LegitPattern } from './truth.js';

/** The legitimate patterns support sessions are built around. */
export const SUPPORT_LEGIT: readonly LegitPattern[] = ['job_polling', 'pagination', 'several_orders', 'rate_limit_retry'];

const STAGES = ['pending', 'approved', 'sent_to_bank', 'processed'];

/** A refund issued, then its status polled until processed: the same answer while pending, or moving stages. */
function polling(a: SupportAgent, rng: Rng): Block {
  const o = a.scene.focus;
  const first = refund(rng, o.id, o.total, a.scene.issue.kind);
  const id = (JSON.parse(first.result as string) as { refund_id: string }).refund_id;
  const poll = (status: string, extra: object = {}): ToolEvent => ({ tool: 'check_refund_status', args: { refund_id: id }, result: JSON.stringify({ refund_id: id, status, ...extra }) });
  const out: ToolEvent[] = [first];
  if (rng.chance(0.5)) {
    for (let i = rng.int(2, 6); i > 0; i--) out.push(poll('pending'));
    out.push(poll('processed', { settled_at: '2024-06-14T10:02:11Z' }));
    return { variant: 'refund-pending-same-answer', events: out };
  }
  let stage = 0;
  while (stage < STAGES.length - 1) {
    out.push(poll(STAGES[stage] as string, { updated_at: `2024-06-14T0${stage}:${String(rng.int(10, 59))}:00Z` }));
    if (rng.chance(0.65)) stage++;
  }
  out.push(poll('processed', { updated_at: '2024-06-14T09:58:00Z' }));
  return { variant: 'refund-stages', events: out };
}

/** The customer's order history, page after page. */
function pagination(a: SupportAgent, rng: Rng): Block {
  const pages = rng.int(3, 7);
  const size = rng.pick([10, 20]);
  const base = rng.int(10000, 60000);
  const events = Array.from({ length: pages }, (_, p): ToolEvent => {
    const orders = Array.from({ length: p === pages - 1 ? rng.int(1, size) : size }, (_, i) => ({ order_id: `ORD-${base + (p * size + i) * 37}`, status: rng.pick(['delivered', 'delivered', 'returned', 'cancelled']) }));
    return { tool: 'list_orders', args: { customer_id: a.scene.customerId, page: p + 1, page_size: size }, result: JSON.stringify({ page: p + 1, orders, next_page: p === pages - 1 ? null : p + 2 }) };
  });
  return { variant: `list-orders-pages-of-${size}`, events };
}

/** Each of the customer's orders looked up, with the shipping status of those on their way. */
function severalOrders(a: SupportAgent, rng: Rng): Block {
  const out: ToolEvent[] = [];
  for (const o of a.scene.orders) {
    out.push(lookupOrder(o));
    if (o.tracking !== null && rng.chance(0.4)) out.push(shippingStatus(o.tracking, rng.int(1, 5)));
  }
  return { variant: `${a.scene.orders.length}-orders`, events: out };
}

/** A lookup retried through HTTP 429s until it goes through. */
function rateLimitRetry(a: SupportAgent, rng: Rng): Block {
  const o = a.scene.focus;
  const out: ToolEvent[] = [];
  for (let i = rng.int(2, 4); i > 0; i--) out.push({ tool: 'lookup_order', args: { order_id: o.id }, error: `429 Too Many Requests: rate limit exceeded for /v1/orders, retry after ${rng.int(1, 5)}s` });
  out.push(lookupOrder(o));
  return { variant: 'lookup-after-429', events: out };
}

/** A block of calls showing the legitimate pattern `p` in a support session. */
export function supportLegit(p: LegitPattern, a: SupportAgent, rng: Rng): Block {
  switch (p) {
    case 'job_polling': return polling(a, rng);
    case 'pagination': return pagination(a, rng);
    case 'several_orders': return severalOrders(a, rng);
    case 'rate_limit_retry': return rateLimitRetry(a, rng);
    default: return { variant: 'plain', events: a.work(rng.int(4, 8)) };
  }
}
