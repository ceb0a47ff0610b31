// The cart's small pure rules, shared by the header, the drawer, the gates and the cart page:
// words for counts, the packaging family rule (kegs and bottles/cans go in separate orders), and
// the 500 ms debounce of cart changes. No Intl here (QuickJS renders these pages).
import { KEG_FAMILIES, RESET_FAMILIES, type CartAnswer, type CartCase, type FilterType } from '../../api/contract.gen';

/** The server's words for the reset question, an incomplete case and an empty cart. */
export { EMPTY_CART, INCOMPLETE, RESET_QUESTION } from '../../api/contract.gen';

/** Cart quantity edits and add to cart wait 500 ms. */
export const CART_DEBOUNCE_MS = 500;

/** The store's words for a failed add and for deposits (a success's are the server's: ADDED_TO_CART). */
export const ADD_FAILED = 'Something went wrong adding this product to the cart.';
/** Add to Cart given up on a failing link: a try may have reached the store before the link died. */
export const ADD_UNSURE = 'We could not reach the store, so we cannot tell whether this product was added. Check your cart before you add it again.';
export const DEPOSITS_NOTE = 'Deposits for bottles and kegs are calculated at checkout.';

/** `n` and the noun, plural unless one: `1 item`, `3 bottles`. */
export function count(n: number, noun: string): string {
  return `${n} ${n === 1 ? noun : `${noun}s`}`;
}

/** The header cart link's accessible name. */
export function cartLinkLabel(items: number): string {
  return `Cart, ${count(items, 'item')}`;
}

/** A case panel's number of cases and unit noun: `2 cases of 24 bottles`, `1 keg`. */
export function casesLabel(c: Pick<CartCase, 'cases' | 'unit_per_case' | 'unit_noun'>): string {
  if (c.unit_per_case <= 1) return count(c.cases, c.unit_noun);
  return `${count(c.cases, 'case')} of ${count(c.unit_per_case, c.unit_noun)}`;
}

/** Used versus capacity: `3 of 24 bottles`. */
export function usedLabel(c: Pick<CartCase, 'units' | 'capacity' | 'unit_noun'>): string {
  return `${c.units} of ${count(c.capacity, c.unit_noun)}`;
}

/** Kegs and bottles/cans go in separate orders: the families that are kegs are the server's. */
export function isKeg(f: FilterType | null | undefined): boolean {
  return f != null && (KEG_FAMILIES as readonly string[]).includes(f);
}

/**
 * Whether choosing a packaging of `family` asks to reset a cart holding `cart`: one of the families
 * the server's RESET_FAMILIES says a cart may not hold then (the other family).
 */
export function needsReset(cart: Pick<CartAnswer, 'shopping_cart'> | null | undefined, family: FilterType): boolean {
  const refused: readonly string[] = RESET_FAMILIES[family];
  return (cart?.shopping_cart ?? []).some((c) => c.items.length > 0 && refused.includes(c.family));
}

/** Every product id in the cart (what DELETE /cart takes to empty it). */
export function productIds(cart: Pick<CartAnswer, 'shopping_cart'> | null | undefined): number[] {
  return (cart?.shopping_cart ?? []).flatMap((c) => c.items.map((i) => i.id));
}

/**
 * Calls `run` with the last value given, once `ms` have passed without another (the cart's
 * debounce); `flush` runs a pending call now, `cancel` drops it.
 */
export function debounce<T>(
  run: (value: T) => void,
  ms: number,
  timers: { set: (f: () => void, ms: number) => unknown; clear: (t: unknown) => void } = {
    set: (f, t) => setTimeout(f, t),
    clear: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
  },
) {
  let timer: unknown = null;
  let pending: { value: T } | null = null;
  const fire = () => {
    timer = null;
    const p = pending;
    pending = null;
    if (p) run(p.value);
  };
  return {
    call(value: T) {
      pending = { value };
      if (timer !== null) timers.clear(timer);
      timer = timers.set(fire, ms);
    },
    flush() {
      if (timer !== null) timers.clear(timer);
      fire();
    },
    cancel() {
      if (timer !== null) timers.clear(timer);
      timer = null;
      pending = null;
    },
  };
}
