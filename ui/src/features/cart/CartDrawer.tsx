import type { CartAnswer } from '../../api/contract.gen';
import { casesLabel, count, DEPOSITS_NOTE, EMPTY_CART } from './rules';
import { formatPhp } from '../../lib/money';

/** The ids of the drawer's heading (the dialog's name) and its message (what describes it). */
export const CART_DRAWER_TITLE = 'cart-drawer-title';
export const CART_DRAWER_MESSAGE = 'cart-drawer-message';

/**
 * The cart drawer's body: each case with its items, View Shopping Cart and the deposits
 * note. Only props, no context or generated ids (its two are fixed): the server can render it on
 * its own for a visitor and splice it into a shared page.
 */
export function CartDrawerBody({ cart, message = null }: { cart: CartAnswer | null; message?: string | null }) {
  const cases = (cart?.shopping_cart ?? []).filter((c) => c.items.length > 0);
  return (
    <>
      {/* Where focus goes when the drawer opens (components/Drawer.tsx). */}
      <h2 className="drawer-title" id={CART_DRAWER_TITLE} tabIndex={-1} data-autofocus>
        Shopping Cart
      </h2>
      <p className="form-message" id={CART_DRAWER_MESSAGE} role="status">
        {message ?? ''}
      </p>
      {cases.length === 0 ? (
        <p>{EMPTY_CART}</p>
      ) : (
        <ul className="drawer-cases">
          {cases.map((c) => (
            <li key={`${c.packaging_id}-${c.name}`} className="drawer-case">
              <p className="drawer-case-head">
                <strong>{c.name}</strong> <span className="muted">{casesLabel(c)}</span>
                <span className="amount">{formatPhp(c.total)}</span>
              </p>
              <ul className="drawer-items">
                {c.items.map((i) => (
                  <li key={i.id}>
                    {i.product_name} <span className="muted">× {count(i.quantity, c.unit_noun)}</span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      <a className="button" href="/cart">
        View Shopping Cart
      </a>
      <p className="note">{DEPOSITS_NOTE}</p>
    </>
  );
}
