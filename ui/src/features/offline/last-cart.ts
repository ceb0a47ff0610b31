// The cart as this browser last saw it, for the offline page: written whenever the app holds a new
// cart answer, forgotten when the session changes hands (the worker says so) and on an empty cart.
// Names, quantities and totals only; nothing of the shopper's address or contact.

import type { CartAnswer } from '../../api/contract.gen';

const KEY = 'tala:last-cart';

export interface LastCart {
  savedAt: number;
  items: { slug: string; name: string; quantity: number; unit: string; total: number }[];
  subtotal: number;
}

/** What of a cart answer the offline page shows. */
export function lastCartOf(cart: CartAnswer, now: number): LastCart {
  return {
    savedAt: now,
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

export function loadLastCart(): LastCart | null {
  const raw = storage()?.getItem(KEY);
  if (!raw) return null;
  try {
    const last = JSON.parse(raw) as LastCart;
    return Array.isArray(last.items) && typeof last.savedAt === 'number' ? last : null;
  } catch {
    return null;
  }
}

export function forgetLastCart(): void {
  storage()?.removeItem(KEY);
}
