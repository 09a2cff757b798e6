/**
 * What a channel reports besides plain messages (issue #25), as stored in a message's `data` and read by
 * the server and the console alike:
 *  - a customer's reaction, on the message it reacts to: `data.reaction` (the emoji; null once removed) and
 *    `data.reaction_at` (when, ISO: an older event arriving late changes nothing);
 *  - a WhatsApp order (a cart sent from the catalogue): a customer text message whose `data.order` is Meta's
 *    order object as received ({catalog_id, text?, product_items: [{product_retailer_id, quantity, item_price, currency}]});
 *  - a system line of the room (origin 'system'): `data.system` is 'number_changed' (with `new_id`, the
 *    customer's new WhatsApp id) or 'unsupported' (the customer sent something the channel cannot show).
 */
import type { Platform } from './chats';

/** The customer's current reaction to a message, or null (none, or removed). */
export function reactionOf(data: Record<string, unknown> | null | undefined): string | null {
  const reaction = data?.reaction;
  return typeof reaction === 'string' && reaction.trim() ? reaction : null;
}

export type SystemLine = { system: 'number_changed'; new_id: string } | { system: 'unsupported'; platform: Platform | null };

/** The system line a system message's data describes, or null (a CSAT rating, or anything else). */
export function systemLineOf(data: Record<string, unknown> | null | undefined): SystemLine | null {
  if (data?.system === 'number_changed' && typeof data.new_id === 'string' && data.new_id) return { system: 'number_changed', new_id: data.new_id };
  if (data?.system === 'unsupported') {
    const platform = data.platform;
    return { system: 'unsupported', platform: platform === 'whatsapp' || platform === 'messenger' || platform === 'instagram' || platform === 'sandbox' ? platform : null };
  }
  return null;
}

export interface OrderItem {
  /** The product's SKU in the catalogue (product_retailer_id). */
  product: string;
  quantity: number;
  /** The unit price. */
  price: number;
  currency: string;
}

export interface Order {
  catalogId: string | null;
  items: OrderItem[];
  /** The text the customer sent with the order. */
  note: string | null;
  /** The sum of the items, when they share one currency. */
  total: { amount: number; currency: string } | null;
}

function num(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null;
}

/** Decimal places of a currency (2 when unknown). */
export function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** The order a message's data carries (Meta's quantities and prices may be strings), or null. */
export function orderOf(data: Record<string, unknown> | null | undefined): Order | null {
  const raw = data?.order;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const order = raw as Record<string, unknown>;
  if (!Array.isArray(order.product_items)) return null;
  const items: OrderItem[] = [];
  for (const entry of order.product_items as unknown[]) {
    const item = entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : {};
    const product = str(item.product_retailer_id);
    const quantity = num(item.quantity);
    const price = num(item.item_price);
    const currency = str(item.currency)?.toUpperCase() ?? null;
    if (product && quantity !== null && price !== null && currency) items.push({ product, quantity, price, currency });
  }
  if (!items.length) return null;
  const currencies = new Set(items.map((i) => i.currency));
  let total: Order['total'] = null;
  if (currencies.size === 1) {
    const currency = items[0].currency;
    const scale = 10 ** currencyDigits(currency);
    // In minor units, so 0.1 + 0.2 stays 0.30.
    total = { amount: items.reduce((sum, i) => sum + Math.round(i.price * scale) * i.quantity, 0) / scale, currency };
  }
  return { catalogId: str(order.catalog_id), items, note: str(order.text), total };
}

/** "12.50 EUR": the amount with its currency's decimals, no grouping (stored text, not localised). */
export function plainAmount(amount: number, currency: string): string {
  return `${amount.toFixed(currencyDigits(currency))} ${currency}`;
}

/** The order as a readable line (the stored text: room previews, search, exports), with the customer's note below. */
export function orderText(order: Order): string {
  const items = order.items.map((i) => `${i.quantity} × ${i.product} at ${plainAmount(i.price, i.currency)}`).join(', ');
  const total = order.total ? ` · total ${plainAmount(order.total.amount, order.total.currency)}` : '';
  return `Order: ${items}${total}${order.note ? `\n${order.note}` : ''}`;
}
