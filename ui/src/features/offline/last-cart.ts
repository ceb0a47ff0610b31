// The cart as this browser last saw it, for the offline page: written whenever the app holds a new
// cart answer, forgotten when the session changes hands (the worker says so) and on an empty cart.
// Names, quantities and totals only; nothing of the shopper's address or contact.

import type { CartAnswer } from '../../api/contract.gen';

const KEY = 'tala:last-cart';

export interface LastCart {
  savedAt: number;
  /** The header's count: how many different products. */
  count: number;
  items: { slug: string; name: string; quantity: number; unit: string; total: number }[];
  subtotal: number;
}

/** What of a cart answer the offline page shows. */
export function lastCartOf(cart: CartAnswer, now: number): LastCart {
  return {
    savedAt: now,
    count: cart.item_count,
    items: cart.shopping_cart.flatMap((c) =>
      c.items.map((i) => ({ slug: i.slug, name: i.product_name, quantity: i.quantity, unit: c.unit_noun, total: i.total_price })),
    ),
    subtotal: cart.cart_order_summary.subtotal,
  };
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage refused (a private window's settings): nothing is kept.
    return null;
  }
}

export function saveLastCart(cart: CartAnswer): void {
  const s = storage();
  if (!s) return;
  const last = lastCartOf(cart, Date.now());
  try {
    if (last.items.length === 0) s.removeItem(KEY);
    else s.setItem(KEY, JSON.stringify(last));
  } catch {
    // A full storage keeps the last cart it could.
  }
}

function parse(raw: string | null): LastCart | null {
  if (!raw) return null;
  try {
    const last = JSON.parse(raw) as LastCart;
    return Array.isArray(last.items) && typeof last.savedAt === 'number' ? last : null;
  } catch {
    return null;
  }
}

let read: { raw: string | null; cart: LastCart | null } | null = null;

/** The cart as last seen, the same object while it is the same (for `useSyncExternalStore`). */
export function lastCartNow(): LastCart | null {
  const raw = storage()?.getItem(KEY) ?? null;
  if (!read || read.raw !== raw) read = { raw, cart: parse(raw) };
  return read.cart;
}

/** Calls `changed` when another page of this browser keeps another cart. */
export function watchLastCart(changed: () => void): () => void {
  window.addEventListener('storage', changed);
  return () => window.removeEventListener('storage', changed);
}

export function forgetLastCart(): void {
  storage()?.removeItem(KEY);
}
