/**
 * The world of one customer-service session: a customer, their orders, the issue they wrote about and
 * the knowledge-base articles that answer it.
 */
import type { Rng } from './random.js';

const FIRST = ['Ana', 'Ben', 'Chloe', 'Dev', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kemi', 'Luca', 'Maya', 'Noor', 'Oscar', 'Priya'];
const LAST = ['Silva', 'Okafor', 'Meyer', 'Tanaka', 'Rossi', 'Nguyen', 'Kowalski', 'Haddad', 'Lindqvist', 'Moreau', 'Patel', 'Garcia'];
const ITEMS = ['wireless earbuds', 'standing desk', 'espresso machine', 'running shoes', 'backpack', 'desk lamp', 'phone case', 'air purifier', 'yoga mat', 'mechanical keyboard', 'rain jacket', 'blender'];
const STATUSES = ['processing', 'shipped', 'delivered', 'delivered', 'shipped', 'cancelled', 'returned'] as const;

/** An order as the order system holds it. */
export interface Order {
  readonly id: string;
  readonly item: string;
  readonly qty: number;
  readonly total: string;
  readonly status: (typeof STATUSES)[number];
  readonly placed: string;
  readonly tracking: string | null;
}

/** What the customer wrote about, and the words the agent searches the knowledge base with. */
export interface Issue {
  readonly kind: string;
  readonly words: readonly string[];
  readonly queue: string;
}

const ISSUES: readonly Issue[] = [
  { kind: 'late delivery', words: ['delivery', 'delayed', 'shipping', 'late', 'package', 'carrier'], queue: 'shipping' },
  { kind: 'damaged item', words: ['damaged', 'item', 'arrived', 'broken', 'replacement', 'return'], queue: 'returns' },
  { kind: 'refund request', words: ['refund', 'policy', 'return', 'window', 'days', 'eligible'], queue: 'billing' },
  { kind: 'address change', words: ['change', 'shipping', 'address', 'after', 'order', 'placed'], queue: 'shipping' },
  { kind: 'order cancellation', words: ['cancel', 'order', 'before', 'shipment', 'processing', 'fee'], queue: 'orders' },
  { kind: 'double charge', words: ['charged', 'twice', 'duplicate', 'payment', 'card', 'billing'], queue: 'billing' },
];

/** One support session's customer, orders and issue. */
export interface SupportScene {
  readonly customerId: string;
  readonly name: string;
  readonly email: string;
  readonly tier: string;
  readonly orders: readonly Order[];
  /** The order the issue is about. */
  readonly focus: Order;
  readonly issue: Issue;
  readonly ticket: string;
  /** What this back office's knowledge-base search says when nothing matches. */
  readonly kbNothing: string;
  /** Knowledge-base articles about the issue (id and title). */
  readonly articles: readonly { readonly id: string; readonly title: string }[];
}

/** A date in 2024 as YYYY-MM-DD. */
function date(rng: Rng): string {
  return `2024-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;
}

/** A fresh scene for a support session. */
export function supportScene(rng: Rng): SupportScene {
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  const base = rng.int(10000, 90000);
  const orders: Order[] = Array.from({ length: rng.int(2, 7) }, (_, i) => {
    const status = rng.pick(STATUSES);
    return {
      id: `ORD-${base + i * rng.int(137, 4000)}`,
      item: rng.pick(ITEMS),
      qty: rng.int(1, 3),
      total: `${rng.int(9, 480)}.${String(rng.int(0, 99)).padStart(2, '0')}`,
      status,
      placed: date(rng),
      tracking: status === 'shipped' || status === 'delivered' ? `1Z${rng.int(100000, 999999)}${rng.int(1000, 9999)}` : null,
    };
  });
  const issue = rng.pick(ISSUES);
  const articles = Array.from({ length: rng.int(2, 4) }, (_, i) => ({ id: `KB-${rng.int(1000, 9999)}`, title: `${issue.kind.charAt(0).toUpperCase()}${issue.kind.slice(1)}: ${['what to do', 'our policy', 'step by step', 'exceptions and fees'][i] as string}` }));
  return {
    customerId: `C-${rng.int(100000, 999999)}`,
    name: `${first} ${last}`,
    email: `${first.toLowerCase()}.${last.toLowerCase()}${rng.int(1, 99)}@${rng.pick(['gmail.com', 'outlook.com', 'proton.me', 'yahoo.com'])}`,
    tier: rng.pick(['standard', 'standard', 'plus', 'premium']),
    orders,
    focus: rng.pick(orders),
    issue,
    ticket: `T-${rng.int(200000, 899999)}`,
    kbNothing: rng.pick(['No articles matched your query.', 'No results found.', '[]', '{"results": [], "total": 0}']),
    articles,
  };
}
