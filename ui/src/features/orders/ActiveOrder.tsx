// /active-order/{id}: an order, its status with its history, items, totals,
// where it goes and how it is paid. A member reaches their own; a guest through the key of the
// order's link; anyone else gets the page of an unknown order (404, the server's answer).
import { useQuery } from '@tanstack/react-query';
import { calls, PAY_UNREACHABLE, PICKUP, type OrderView } from '../../api/contract.gen';
import { FormCall, FormMessage, useScopedForm } from '../../components/form';
import { QueryState } from '../../components/QueryState';
import { formatPhp } from '../../lib/money';
import { usePage } from '../../page';
import { OrderAgain } from './OrderAgain';
import { awaitingPayment, confirmation, ORDERS_PATH } from './orders';
import { paymentMethodsQuery } from './place/queries';
import { orderQuery } from './queries';

export function ActiveOrder() {
  const page = usePage();
  // The server answered 404: there is no data to fetch (nor anything to show but the message).
  const missing = page.status === 404;
  const options = orderQuery.options(page.vars);
  const order = useQuery({ ...options, enabled: options.enabled && !missing });
  if (missing) return <OrderNotFound member={!!page.member} />;
  return (
    <QueryState query={order} loading="Loading your order…" error="We could not load this order. Please reload the page." retry>
      {(o) => <Order order={o} member={!!page.member} />}
    </QueryState>
  );
}

function OrderNotFound({ member }: { member: boolean }) {
  return (
    <section className="not-found" aria-labelledby="order-missing-title">
      <h1 id="order-missing-title">Order not found</h1>
      <p>
        We could not find this order. Open it from the link in your order confirmation email
        {member ? ', or find it in your orders.' : ', or log in if you ordered with your account.'}
      </p>
      <ul className="order-links">
        <li>
          {member ? (
            <a className="button" href={ORDERS_PATH}>
              My Orders
            </a>
          ) : (
            <a className="button" href="/login">
              Log In
            </a>
          )}
        </li>
        <li>
          <a className="button secondary" href="/buy-beer">
            Buy Beer
          </a>
        </li>
      </ul>
    </section>
  );
}

/** The thanks of a just-placed order (`confirmation`): whether its mail went, and how to come back. */
function Thanks({ order: o, member }: { order: OrderView; member: boolean }) {
  const thanks = confirmation(o);
  if (!thanks) return null;
  return (
    <div className="order-thanks" role="status">
      <p>
        <strong>{thanks}</strong>
      </p>
      <p>
        {o.confirmation_mailed
          ? `We sent the confirmation to ${o.email}.`
          : `We did not mail a confirmation to ${o.email}: it has had several order confirmations from us in the last hour.`}
        {member ? ' You can find this order in My Orders.' : ' Keep its link: it is how you come back to this page.'}
      </p>
    </div>
  );
}

/** The order's status and its history. */
function Status({ order: o }: { order: OrderView }) {
  return (
    <section aria-labelledby="order-status-title" className="order-section">
      <h2 id="order-status-title">
        Status: <span className="order-status">{o.status_label}</span>
      </h2>
      <ol className="order-history">
        {o.history.map((s) => (
          <li key={`${s.status}-${s.at}`}>
            <span>{s.label}</span> <span className="order-at">{s.at}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The order's items, and its totals: items, deposits, delivery fee and the total. */
function Items({ order: o }: { order: OrderView }) {
  return (
    <section aria-labelledby="order-items-title" className="order-section">
      <h2 id="order-items-title">Items</h2>
      <table className="order-items">
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Quantity</th>
            <th scope="col">Amount</th>
          </tr>
        </thead>
        <tbody>
          {o.items.map((i) => (
            <tr key={`${i.product_id}-${i.case_name}`}>
              <th scope="row">
                {i.product_name}{' '}
                <span className="order-case">{i.case_name}</span>
              </th>
              <td>{i.quantity}</td>
              <td>{formatPhp(i.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="order-totals">
        <div>
          <dt>Items</dt>
          <dd>{formatPhp(o.items_total)}</dd>
        </div>
        {o.deposits.map((d, i) => (
          <div key={`${i}-${d.name}`}>
            <dt>{d.name}</dt>
            <dd>{formatPhp(d.amount)}</dd>
          </div>
        ))}
        <div>
          <dt>Delivery fee</dt>
          <dd>{formatPhp(o.delivery_fee)}</dd>
        </div>
        <div className="order-total">
          <dt>Total</dt>
          <dd>{formatPhp(o.total)}</dd>
        </div>
      </dl>
    </section>
  );
}

/** Where the order goes and how it is paid: fulfillment, payment, address, contact and notes. */
function Where({ order: o }: { order: OrderView }) {
  const pickup = o.fulfillment_id === PICKUP;
  return (
    <section aria-labelledby="order-where-title" className="order-section">
      <h2 id="order-where-title">{pickup ? 'Pickup' : 'Delivery'}</h2>
      <dl className="order-details">
        <div>
          <dt>Fulfillment</dt>
          <dd>{o.fulfillment}</dd>
        </div>
        <div>
          <dt>Payment</dt>
          <dd>{o.payment}</dd>
        </div>
        <div>
          <dt>{pickup ? 'Location' : 'Address'}</dt>
          <dd>{[o.address, o.place].filter(Boolean).join(', ')}</dd>
        </div>
        <div>
          <dt>Contact</dt>
          <dd>
            {o.contact_name}, {o.mobile}, {o.email}
          </dd>
        </div>
        {o.notes && (
          <div>
            <dt>Notes</dt>
            <dd>{o.notes}</dd>
          </div>
        )}
      </dl>
    </section>
  );
}

/**
 * An order awaiting its payment online: Pay Now (its PayMongo page, or the order placed when
 * PayMongo has the payment), or Pay in Cash instead. Both are real forms: without JavaScript the
 * store answers 303 to PayMongo's page or back here.
 */
function AwaitingPayment({ order: o }: { order: OrderView }) {
  const page = usePage();
  const key = page.vars.key;
  const [pay, submitPay] = useScopedForm('pay-now');
  const [cash, submitCash] = useScopedForm('pay-cash', { confirm: 'Pay this order in cash instead of online?' });
  const pickup = o.fulfillment_id === PICKUP;
  const minutes = useQuery(paymentMethodsQuery.options()).data?.pay_within_minutes;
  return (
    <section aria-labelledby="order-pay-title" className="order-section order-pay">
      <h2 id="order-pay-title">Waiting for your payment</h2>
      {page.vars.notice === 'pay-unreachable' && (
        <p className="form-message error" role="alert">
          {PAY_UNREACHABLE}
        </p>
      )}
      <p>{awaitingPayment(minutes)}</p>
      <form method="post" action={page.url} onSubmit={submitPay}>
        <FormCall call={calls.payOrder} />
        <input type="hidden" name="form" value="pay-now" />
        <input type="hidden" name="orderId" value={o.id} />
        {key && <input type="hidden" name="key" value={key} />}
        <button type="submit" disabled={pay.busy}>
          Pay {formatPhp(o.total)} Now
        </button>
        <FormMessage state={pay} />
      </form>
      <form method="post" action={page.url} onSubmit={submitCash}>
        <FormCall call={calls.payInCash} />
        <input type="hidden" name="form" value="pay-cash" />
        <input type="hidden" name="orderId" value={o.id} />
        {key && <input type="hidden" name="key" value={key} />}
        <button type="submit" className="secondary" disabled={cash.busy}>
          {pickup ? 'Pay at Pickup Instead' : 'Pay Cash on Delivery Instead'}
        </button>
        <FormMessage state={cash} />
      </form>
    </section>
  );
}

function Order({ order: o, member }: { order: OrderView; member: boolean }) {
  return (
    <section className="active-order" aria-labelledby="order-title">
      <h1 id="order-title">Order {o.number}</h1>
      <Thanks order={o} member={member} />
      <p className="order-placed">Placed on {o.placed_at}</p>
      {o.status === 'awaiting_payment' && <AwaitingPayment order={o} />}
      <OrderAgain order={o} />
      <Status order={o} />
      <Items order={o} />
      <Where order={o} />
      <p>
        <a href={member ? ORDERS_PATH : '/buy-beer'}>{member ? 'Back to My Orders' : 'Continue Shopping'}</a>
      </p>
    </section>
  );
}
