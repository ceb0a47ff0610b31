import type { ReactNode } from 'react';
import type { NameAmount, OrderSummary as Summary } from '../api/contract.gen';
import { formatPhp } from '../lib/money';

export interface OrderSummaryProps {
  /** The cart's `cart_order_summary`. */
  summary: Summary;
  /** The cart page's summary or the checkout page's. */
  mode: 'cart' | 'checkout';
  /** The page's control: Proceed To Checkout (cart) or Submit Order (checkout). */
  action: ReactNode;
  /** Why the action is disabled, shown under it (null or absent: it is not). */
  blocked?: string | null;
}

function Lines({ id, title, lines, empty }: { id: string; title: string; lines: NameAmount[]; empty: string }) {
  return (
    <>
      <dt id={id}>{title}</dt>
      <dd>
        {lines.length === 0 ? (
          <span className="muted">{empty}</span>
        ) : (
          <ul aria-labelledby={id} className="summary-lines">
            {lines.map((l, i) => (
              <li key={`${l.name}-${i}`} className={l.amount < 0 ? 'credit' : undefined}>
                <span>{l.name}</span> <span className="amount">{formatPhp(l.amount)}</span>
              </li>
            ))}
          </ul>
        )}
      </dd>
    </>
  );
}

/**
 * The Order Summary: items in cart (a line a case), deposits (a line a deposit row; returned
 * empties are a negative line), delivery fee and subtotal, then the page's action. Money is
 * integer centavos, shown by formatPhp.
 */
export function OrderSummary({ summary, mode, action, blocked = null }: OrderSummaryProps) {
  const titleId = `order-summary-${mode}`;
  return (
    <section className="order-summary" aria-labelledby={titleId}>
      <h2 id={titleId}>Order Summary</h2>
      <dl>
        <Lines id={`${titleId}-items`} title="Items in cart" lines={summary.items_in_cart} empty="None" />
        <Lines id={`${titleId}-deposits`} title="Deposits" lines={summary.deposits} empty="None" />
        <dt>Delivery fee</dt>
        <dd className="amount">{formatPhp(summary.delivery_fee)}</dd>
        <dt className="subtotal">Subtotal</dt>
        <dd className="subtotal amount">{formatPhp(summary.subtotal)}</dd>
      </dl>
      <div className="summary-action">{action}</div>
      {blocked && (
        <p className="form-message error" id={`${titleId}-blocked`} role="note">
          {blocked}
        </p>
      )}
    </section>
  );
}

/** The id of the note that says why the action is disabled (for the control's aria-describedby). */
export function blockedNoteId(mode: 'cart' | 'checkout'): string {
  return `order-summary-${mode}-blocked`;
}
