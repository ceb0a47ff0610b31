// /my-account/orders: the member's orders, newest first, ten a page, each
// with its number, date, status and total and a link to its page.
import { useQuery } from '@tanstack/react-query';
import type { OrderList } from '../../api/contract.gen';
import { AccountPage } from '../../components/AccountPage';
import { QueryState } from '../../components/QueryState';
import { formatPhp } from '../../lib/money';
import { usePage } from '../../page';
import { OrderAgain } from './OrderAgain';
import { itemCount, orderPath, ORDERS_PATH, pagerLinks } from './orders';
import { myOrdersQuery } from './queries';

export function MyOrders() {
  const page = usePage();
  const orders = useQuery(myOrdersQuery.options(page.vars));
  return (
    <AccountPage current={ORDERS_PATH} id="orders" title="My Orders">
      <QueryState
        query={orders}
        loading="Loading your orders…"
        error="We could not load your orders. Please reload the page."
        retry
        isEmpty={(d) => d.total === 0}
        empty={
          <>
            You have not placed any orders yet.{' '}
            <a className="button" href="/buy-beer">
              Buy Beer
            </a>
          </>
        }
      >
        {(d) => <Orders list={d} />}
      </QueryState>
    </AccountPage>
  );
}

function Orders({ list }: { list: OrderList }) {
  const { previous, next } = pagerLinks(list.page, list.pages);
  return (
    <>
      {list.orders.length === 0 ? (
        <p className="empty">There are no orders on this page.</p>
      ) : (
        <ol className="order-list">
          {list.orders.map((o) => (
            <li key={o.id} className="order-card">
              <h2>
                <a href={orderPath(o)}>Order {o.number}</a>
              </h2>
              <dl>
                <div>
                  <dt>Placed</dt>
                  <dd>{o.placed_at}</dd>
                </div>
                <div>
                  <dt>Status</dt>
                  <dd>{o.status_label}</dd>
                </div>
                <div>
                  <dt>{o.fulfillment}</dt>
                  <dd>{itemCount(o)}</dd>
                </div>
                <div>
                  <dt>Total</dt>
                  <dd>{formatPhp(o.total)}</dd>
                </div>
              </dl>
              <OrderAgain order={o} />
            </li>
          ))}
        </ol>
      )}
      {list.pages > 1 && (
        <nav className="pager" aria-label="Pages of your orders">
          {previous && (
            <a href={previous} rel="prev">
              Previous
            </a>
          )}
          <span>
            Page {Math.min(list.page, list.pages)} of {list.pages}
          </span>
          {next && (
            <a href={next} rel="next">
              Next
            </a>
          )}
        </nav>
      )}
    </>
  );
}
