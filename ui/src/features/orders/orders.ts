// What the order pages decide themselves: the pager's links and what a just-placed order says.
// Pure functions, tested in orders.test.ts.
import type { OrderView } from '../../api/contract.gen';

export const ORDERS_PATH = '/my-account/orders';

/** The Previous and Next links of a page of the member's orders (null: there is none). */
export function pagerLinks(page: number, pages: number): { previous: string | null; next: string | null } {
  const link = (n: number) => (n <= 1 ? ORDERS_PATH : `${ORDERS_PATH}?page=${n}`);
  // Past the last page, Previous goes to the last one.
  return {
    previous: page > 1 && pages > 0 ? link(Math.min(page - 1, pages)) : null,
    next: page < pages ? link(page + 1) : null,
  };
}

/** The address of an order's page (a member's; a guest's link carries its key). */
export function orderPath(order: Pick<OrderView, 'id'>): string {
  return `/active-order/${order.id}`;
}

/** The confirmation an order shows until the store takes it further. */
export function confirmation(order: Pick<OrderView, 'status' | 'number'>): string | null {
  return order.status === 'placed' ? `Thank you! Your order ${order.number} is placed.` : null;
}

/** How many items an order holds, as its list says it ("1 item", "3 items"). */
export function itemCount(order: Pick<OrderView, 'items'>): string {
  const n = order.items.length;
  return `${n} ${n === 1 ? 'item' : 'items'}`;
}

/** What the page says of an order paid online that waits for its payment, paid within `minutes`. */
export function awaitingPayment(minutes: number | undefined): string {
  const within = minutes ? ` Pay within ${minutes} minutes of placing it, or it is cancelled.` : '';
  return `We prepare your order once it is paid.${within} Paid already? PayMongo tells us within a minute or so, and Pay Now checks with them too.`;
}
