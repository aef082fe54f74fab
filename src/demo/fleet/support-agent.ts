/**
 * Ordinary work of a customer-service agent: finding the customer and the order, reading the policy,
 * checking shipping, messaging the customer, noting the ticket, then closing it or handing it over. Each
 * step is a fresh call (a call already made is drawn again, a few times at most).
 */
import type { ToolEvent } from '../../types.js';
import { thought } from './agent-text.js';
import { CallMemory, type Draft } from './call-memory.js';
import type { Rng } from './random.js';
import { type SupportScene, supportScene } from './support-scene.js';
import { addNote, checkInventory, closeTicket, createReturnLabel, getArticle, getCustomer, getPayment, lookupOrder, searchKb, sendMessage, shippingStatus, transferToHuman, updateAddress } from './support-tools.js';


/** A support agent working one ticket. */
export class SupportAgent {
  readonly scene: SupportScene;
  /** Calls made so far (plain work draws new ones). */
  readonly memory = new CallMemory();

  constructor(private readonly rng: Rng) {
    this.scene = supportScene(rng);
  }

  /** The customer's first name, for messages. */
  get first(): string {
    return this.scene.name.split(' ')[0] as string;
  }

  /** Attaches a thought about `subject` to a call just made (about half the time), in place. */
  note(e: ToolEvent, subject?: string): ToolEvent {
    const text = subject === undefined ? undefined : thought(this.rng, 'support', subject);
    if (text !== undefined) (e as { text?: string }).text = text;
    return e;
  }

  /** A knowledge-base query about the issue: two to four of its words. */
  query(): string {
    return this.rng.sample(this.scene.issue.words, this.rng.int(2, 4)).join(' ');
  }

  /** A message to the customer about their issue. */
  message(): string {
    const s = this.scene;
    const o = s.focus;
    const other = this.rng.pick(s.orders);
    switch (this.rng.int(0, 10)) {
      case 0: return `Hi ${this.first}, thanks for reaching out about order ${o.id}. I'm looking into it now.`;
      case 1: return `Hi ${this.first}, your order ${o.id} (${o.item}) is currently ${o.status}.`;
      case 2: return `Could you confirm the shipping address you would like us to use for ${o.id}?`;
      case 3: return `Could you send a photo of the ${o.item} as it arrived?`;
      case 4: return `I've checked our policy on ${s.issue.kind}; here is what we can do for order ${o.id}.`;
      case 5: return `Thanks, ${this.first}. I'll update you as soon as I hear back from the ${s.issue.queue} team.`;
      case 6: return `Just to confirm: is your question about ${other.id} (${other.item}) or ${o.id}?`;
      case 7: return `Your order ${other.id} was placed on ${other.placed} and is ${other.status}.`;
      case 8: return `I can see the payment of $${o.total} for ${o.id}. Let me check the next step with you.`;
      case 9: return `We have the ${o.item} in stock, so a replacement could ship within ${this.rng.int(1, 5)} days.`;
      default: return `Sorry for the trouble with ${o.id}, ${this.first}. Would a ${this.rng.pick(['refund', 'replacement', 'store credit'])} work for you?`;
    }
  }

  /** The first calls of every ticket: the customer, the order, the policy. */
  open(): ToolEvent[] {
    const s = this.scene;
    const calls = [this.note(getCustomer(s), s.email), this.note(lookupOrder(s.focus), `order ${s.focus.id}`), this.note(searchKb(this.query(), s.articles), s.issue.kind)];
    this.memory.remember(calls);
    return calls;
  }

  /** One step of ordinary work. */
  step(): ToolEvent {
    return this.note(this.memory.fresh(() => this.intent()).build(), this.scene.issue.kind);
  }

  /** A step chosen but not made yet: what identifies the call, and how to make it. */
  private intent(): Draft & { readonly build: () => ToolEvent } {
    const s = this.scene;
    const r = this.rng;
    switch (r.weighted({ order: 2, kb: 2, article: 1, shipping: 1, message: 3, note: 2, address: 1, payment: 1, stock: 1, label: 1 })) {
      case 'order': {
        const o = r.pick(s.orders);
        return { tool: 'lookup_order', args: { order_id: o.id }, build: () => lookupOrder(o) };
      }
      case 'kb': {
        const q = this.query();
        return { tool: 'search_kb', args: { query: q }, build: () => searchKb(q, r.sample(s.articles, r.int(1, s.articles.length))) };
      }
      case 'article': {
        const a = r.pick(s.articles);
        return { tool: 'get_article', args: { article_id: a.id }, build: () => getArticle(a) };
      }
      case 'shipping': {
        const t = s.focus.tracking;
        return t === null ? { tool: 'lookup_order', args: { order_id: s.focus.id }, build: () => lookupOrder(s.focus) } : { tool: 'get_shipping_status', args: { tracking_number: t }, build: () => shippingStatus(t, r.int(1, 5)) };
      }
      case 'message': {
        const m = this.message();
        return { tool: 'send_message', args: { customer_id: s.customerId, body: m }, build: () => sendMessage(r, s, m) };
      }
      case 'note': {
        const n = `${r.pick(['Customer reports', 'Checked', 'Following up on', 'Escalation possible for'])} ${s.issue.kind} on ${r.pick(s.orders).id}.`;
        return { tool: 'add_note', args: { ticket_id: s.ticket, note: n }, build: () => addNote(s, n) };
      }
      case 'payment': {
        const o = r.pick(s.orders);
        return { tool: 'get_payment', args: { order_id: o.id }, build: () => getPayment(o) };
      }
      case 'stock': {
        const w = r.pick(['us-east', 'us-west', 'eu-central', 'ca-toronto']);
        return { tool: 'check_inventory', args: { item: s.focus.item, warehouse: w }, build: () => checkInventory(s.focus.item, w) };
      }
      case 'label': return { tool: 'create_return_label', args: { order_id: s.focus.id, carrier: 'UPS' }, build: () => createReturnLabel(r, s.focus) };
      default: {
        const addr = `${r.int(1, 999)} ${r.pick(['Main St', 'Oak Ave', 'Pine Rd', 'Elm St'])}, ${r.pick(['Austin TX', 'Denver CO', 'Portland OR'])}`;
        return { tool: 'update_address', args: { order_id: s.focus.id, address: addr }, build: () => updateAddress(s.focus, addr) };
      }
    }
  }

  /** `n` steps of ordinary work. */
  work(n: number): ToolEvent[] {
    return Array.from({ length: n }, () => this.step());
  }

  /** The end of a ticket that was resolved (or handed over). */
  finish(): ToolEvent[] {
    const s = this.scene;
    const last = this.rng.chance(0.8)
      ? closeTicket(s, `${s.issue.kind} resolved for ${s.focus.id}`)
      : transferToHuman(s.issue.queue, `Customer ${s.customerId}: ${s.issue.kind} on ${s.focus.id}; needs approval.`, this.rng.int(1, 9));
    return [sendMessage(this.rng, s, `Thanks for your patience, ${this.first}. Is there anything else I can help with?`), last];
  }
}
