import { useQuery } from '@tanstack/react-query';
import { calls, type StaffOrderView, type StatusChoice } from '../../../api/contract.gen';
import { QueryState } from '../../../components/QueryState';
import { DoneMessage, Field, FormCall, FormMessage, useAccountForm, useDone } from '../../../components/form';
import { formatPhp } from '../../../lib/money';
import { usePage } from '../../../page';
import { staffOrderQuery } from '../queries';
import { StaffPage } from '../StaffPage';

/** A button that moves the order to `next` (a cancellation asks why). */
function Move({ id, here, next }: { id: number; here: string; next: StatusChoice }) {
  const [state, submit] = useAccountForm();
  const cancel = next.status === 'cancelled';
  return (
    <form method="post" action={here} onSubmit={submit} noValidate className="inline-form">
      <FormCall call={calls.staffOrderStatus} />
      <input type="hidden" name="order_ids" value={String(id)} />
      <input type="hidden" name="status" value={next.status} />
      {cancel && <Field name="reason" id={`reason-${next.status}`} label="Why (the shopper is told)" state={state} required />}
      <button type="submit" disabled={state.busy}>
        {cancel ? 'Cancel Order' : `Mark ${next.label}`}
      </button>
      <FormMessage state={state} fields={cancel ? ['reason'] : []} />
    </form>
  );
}

function Details({ view }: { view: StaffOrderView }) {
  const o = view.order;
  return (
    <>
      <p>{`${o.status_label} · ${o.fulfillment} · placed ${o.placed_at} · ${o.payment}`}</p>
      <h2>Contact</h2>
      <p>
        {o.contact_name} <a href={`tel:${o.mobile}`}>{o.mobile}</a> {o.email}
      </p>
      <p>{o.address ? `${o.address}, ${o.place}` : o.place}</p>
      {o.notes && <p>{`The shopper's note: ${o.notes}`}</p>}
      <h2>Items</h2>
      <table>
        <caption>{`Total ${formatPhp(o.total)}: items ${formatPhp(o.items_total)}, deposits ${formatPhp(o.deposits_total)}, delivery ${formatPhp(o.delivery_fee)}`}</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Case</th>
            <th scope="col">Units</th>
            <th scope="col">Amount</th>
          </tr>
        </thead>
        <tbody>
          {o.items.map((i) => (
            <tr key={i.product_id}>
              <td>{i.product_name}</td>
              <td>{i.case_name}</td>
              <td>{i.quantity}</td>
              <td>{formatPhp(i.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>History</h2>
      <ol>
        {o.history.map((h) => (
          <li key={`${h.status}-${h.at}`}>{`${h.at} ${h.label}${h.note ? `: ${h.note}` : ''}`}</li>
        ))}
      </ol>
    </>
  );
}

function Notes({ view, here }: { view: StaffOrderView; here: string }) {
  const [state, submit] = useAccountForm();
  return (
    <>
      <h2>Staff notes</h2>
      {view.notes.length === 0 ? (
        <p className="empty">No notes yet.</p>
      ) : (
        <ul>
          {view.notes.map((n) => (
            <li key={`${n.at}-${n.body}`}>{`${n.at} ${n.by}: ${n.body}`}</li>
          ))}
        </ul>
      )}
      <form method="post" action={here} onSubmit={submit} noValidate>
        <FormCall call={calls.staffOrderNote} />
        <input type="hidden" name="orderId" value={String(view.order.id)} />
        <Field name="body" label="Add a note (the shopper never sees it)" state={state} required />
        <FormMessage state={state} fields={['body']} />
        <button type="submit" disabled={state.busy}>
          Add Note
        </button>
      </form>
    </>
  );
}

/** One order as the staff work it: its details, its next steps, the staff's notes. */
export function Order() {
  const { vars } = usePage();
  const here = `/staff/orders/${vars.orderId ?? ''}`;
  const view = useQuery(staffOrderQuery.options(vars));
  const done = useDone({ moved: 'The order was moved.', noted: 'The note was added.' });
  return (
    <StaffPage current="/staff/orders" action={here} id="staff-order" title={view.data ? `Order ${view.data.order.number}` : 'Order'}>
      <DoneMessage text={done} />
      <QueryState query={view} loading="Loading the order…" error="We could not load the order. Please reload the page." retry>
        {(v) => (
          <>
            <Details view={v} />
            {v.next.length > 0 && (
              <section aria-label="Next steps">
                <h2>Next steps</h2>
                {v.next.map((n) => (
                  <Move key={n.status} id={v.order.id} here={here} next={n} />
                ))}
              </section>
            )}
            <Notes view={v} here={here} />
          </>
        )}
      </QueryState>
    </StaffPage>
  );
}
