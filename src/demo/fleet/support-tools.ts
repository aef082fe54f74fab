/**
 * Tool calls of a customer-service agent, with the JSON its back office would return: customers, orders
 * (one by one or page by page), knowledge-base search, shipping, refunds and their status, messages to
 * the customer (each with a new message id), notes, hand-over to a human, closing the ticket.
 */
import type { ToolEvent } from '../../types.js';
import { type Rng, hashString } from './random.js';
import type { Order, SupportScene } from './support-scene.js';

const json = (v: unknown): string => JSON.stringify(v);

/** `get_customer` by email. */
export function getCustomer(s: SupportScene): ToolEvent {
  return { tool: 'get_customer', args: { email: s.email }, result: json({ customer_id: s.customerId, name: s.name, email: s.email, tier: s.tier, orders: s.orders.length }) };
}

/** `lookup_order` of an order the system has. */
export function lookupOrder(o: Order): ToolEvent {
  return { tool: 'lookup_order', args: { order_id: o.id }, result: json({ order_id: o.id, item: o.item, qty: o.qty, total: o.total, currency: 'USD', status: o.status, placed_at: o.placed, tracking: o.tracking }) };
}

/** `lookup_order` of an id the system does not know. */
export function lookupMissing(id: string): ToolEvent {
  return { tool: 'lookup_order', args: { order_id: id }, error: `OrderNotFound: no order with id '${id}'` };
}

/** `list_orders`, one page of the customer's orders. */
export function listOrders(s: SupportScene, page: number, pageSize: number): ToolEvent {
  const from = (page - 1) * pageSize;
  const ids = s.orders.slice(from, from + pageSize).map((o) => ({ order_id: o.id, status: o.status, placed_at: o.placed }));
  const more = from + pageSize < s.orders.length;
  return { tool: 'list_orders', args: { customer_id: s.customerId, page, page_size: pageSize }, result: json({ page, orders: ids, next_page: more ? page + 1 : null }) };
}

/** `search_kb` returning `articles`; none gives the back office's `nothing` answer. */
export function searchKb(query: string, articles: readonly { readonly id: string; readonly title: string }[], nothing = 'No articles matched your query.'): ToolEvent {
  return { tool: 'search_kb', args: { query }, result: articles.length === 0 ? nothing : json(articles.map((a, i) => ({ ...a, score: Number((0.92 - i * 0.11).toFixed(2)) }))) };
}

/** `get_article`: the text of a knowledge-base article. */
export function getArticle(a: { readonly id: string; readonly title: string }): ToolEvent {
  return { tool: 'get_article', args: { article_id: a.id }, result: `# ${a.title}\nCustomers can ask for this within 30 days of delivery. Verify the order status first; orders in processing can be changed without a fee. Article ${a.id}, revision ${1 + (hashString(a.id) % 9)}.` };
}

/** `get_shipping_status` of a tracking number: the carrier's latest events. */
export function shippingStatus(tracking: string, events: number): ToolEvent {
  const hubs = ['Louisville KY', 'Memphis TN', 'Columbus OH', 'Reno NV', 'Newark NJ'];
  const list = Array.from({ length: events }, (_, i) => ({ at: `2024-06-${String(10 + i).padStart(2, '0')}T0${i % 10}:15:00Z`, event: i === 0 ? 'Label created' : `Arrived at ${hubs[(hashString(tracking) + i) % hubs.length] as string}` }));
  return { tool: 'get_shipping_status', args: { tracking_number: tracking }, result: json({ tracking_number: tracking, carrier: 'UPS', events: list }) };
}

/** `refund` that went through (a new refund id), or failed with `error`. */
export function refund(rng: Rng, orderId: string, amount: string, reason: string, error?: string): ToolEvent {
  const args = { order_id: orderId, amount, reason };
  if (error !== undefined) return { tool: 'refund', args, error };
  return { tool: 'refund', args, result: json({ refund_id: `RF-${rng.int(100000, 999999)}`, status: 'pending', amount }) };
}

/** `send_message` to the customer; every message sent gets a new id. */
export function sendMessage(rng: Rng, s: SupportScene, body: string): ToolEvent {
  return { tool: 'send_message', args: { customer_id: s.customerId, body }, result: json({ status: 'sent', message_id: `msg_${rng.u32().toString(16).padStart(8, '0')}` }) };
}

/** `add_note` to the ticket. */
export function addNote(s: SupportScene, note: string): ToolEvent {
  return { tool: 'add_note', args: { ticket_id: s.ticket, note }, result: `Note added to ticket ${s.ticket}.` };
}

/** `update_address` of an order. */
export function updateAddress(o: Order, address: string): ToolEvent {
  return { tool: 'update_address', args: { order_id: o.id, address }, result: json({ order_id: o.id, address, updated: true }) };
}

/** `transfer_to_human`: queued, or refused with `error`. */
export function transferToHuman(queue: string, summary: string, position: number, error?: string): ToolEvent {
  const args = { queue, summary };
  return error === undefined ? { tool: 'transfer_to_human', args, result: json({ status: 'queued', queue, position }) } : { tool: 'transfer_to_human', args, error };
}

/** `close_ticket` with a resolution. */
export function closeTicket(s: SupportScene, resolution: string): ToolEvent {
  return { tool: 'close_ticket', args: { ticket_id: s.ticket, resolution }, result: `Ticket ${s.ticket} closed.` };
}

/** `get_payment` of an order: how it was paid. */
export function getPayment(o: Order): ToolEvent {
  return { tool: 'get_payment', args: { order_id: o.id }, result: json({ order_id: o.id, method: `visa ****${1000 + (hashString(o.id) % 9000)}`, captured: o.total, status: o.status === 'cancelled' ? 'voided' : 'captured' }) };
}

/** `check_inventory` of an item in a warehouse. */
export function checkInventory(item: string, warehouse: string): ToolEvent {
  return { tool: 'check_inventory', args: { item, warehouse }, result: json({ item, warehouse, available: hashString(`${item}@${warehouse}`) % 40 }) };
}

/** `create_return_label` for an order: a new label each time. */
export function createReturnLabel(rng: Rng, o: Order): ToolEvent {
  const id = `RL-${rng.int(100000, 999999)}`;
  return { tool: 'create_return_label', args: { order_id: o.id, carrier: 'UPS' }, result: json({ label_id: id, url: `https://labels.example.com/${id}.pdf` }) };
}
