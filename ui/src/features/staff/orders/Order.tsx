import { useQuery } from '@tanstack/react-query';
import { calls, MAX_REFUND_NOTES, REFUND_REASONS, type PaymentView, type StaffOrderView, type StatusChoice } from '../../../api/contract.gen';
import { QueryState } from '../../../components/QueryState';
import { DoneMessage, Field, FormCall, FormMessage, useAccountForm, useDone } from '../../../components/form';
import { formatPhp } from '../../../lib/money';
import { usePage } from '../../../page';
import { staffMeQuery, staffOrderQuery } from '../queries';
import { FieldErrors, StaffForm } from '../StaffForm';
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

/**
 * A manager's Refund of one online payment: why (PayMongo's reasons) and a note PayMongo keeps. A
 * refund whose answer was lost is asked again as it was (PayMongo takes the same key only with the
 * same body), so Ask Again sends what was asked.
 */
function Refund({ p, here }: { p: PaymentView; here: string }) {
  const id = `refund-${p.id}`;
  const again = p.refund?.state === 'asking' ? p.refund : null;
  return (
    <StaffForm id={id} call={calls.staffRefundPayment} action={here} className="refund" fields={['reason', 'notes']} confirm={`Refund ${formatPhp(p.amount)} of payment ${p.id} through PayMongo?`}>
      {(state) => (
        <fieldset>
          <legend>{`Refund ${formatPhp(p.amount)} by ${p.method} (${p.id})`}</legend>
          <input type="hidden" name="paymentId" value={p.id} />
          {again ? (
            <>
              <input type="hidden" name="reason" value={again.reason_code} />
              <input type="hidden" name="notes" value={again.notes} />
              <p className="hint">PayMongo is asked again as before; it makes the refund once.</p>
            </>
          ) : (
            <>
              <div className="field">
                <label htmlFor={`${id}-reason`}>Why</label>
                <select id={`${id}-reason`} name="reason" required defaultValue={state.values.reason ?? ''} aria-invalid={state.errors.reason ? true : undefined} aria-describedby={state.errors.reason ? `${id}-reason-error` : undefined}>
                  <option value="">Choose why</option>
                  {REFUND_REASONS.map((r) => (
                    <option key={r.value} value={r.value}>
                      {r.label}
                    </option>
                  ))}
                </select>
                <FieldErrors state={state} name="reason" id={`${id}-reason-error`} />
              </div>
              <Field id={`${id}-notes`} name="notes" label={`Note for PayMongo (optional, up to ${MAX_REFUND_NOTES} characters; no personal data)`} state={state} autoComplete="off" />
            </>
          )}
          <button type="submit" disabled={state.busy}>
            {again ? 'Ask Again' : 'Refund'}
            <span className="visually-hidden">{` ${formatPhp(p.amount)} of ${p.id}`}</span>
          </button>
        </fieldset>
      )}
    </StaffForm>
  );
}

/** The order's online payments: each one's amount and method, why it is not the order's when it is not, its refund, and Refund for a manager when it is owed back. */
function Payments({ view, here, manager }: { view: StaffOrderView; here: string; manager: boolean }) {
  if (view.payments.length === 0) return null;
  return (
    <section aria-labelledby="payments-title">
      <h2 id="payments-title">Payments online</h2>
      <ul className="payments">
        {view.payments.map((p) => (
          <li key={p.id}>
            <p>{`${formatPhp(p.amount)} by ${p.method}, ${p.received_at} (${p.id})`}</p>
            {p.problem && <p>{p.problem}</p>}
            {p.refund && <p>{`${p.refund.label}: ${formatPhp(p.refund.amount)}, ${p.refund.reason}${p.refund.notes ? ` (${p.refund.notes})` : ''}; asked by ${p.refund.by}, ${p.refund.at}`}</p>}
            {p.refundable && manager && <Refund p={p} here={here} />}
            {p.refundable && !manager && <p className="hint">A manager refunds it.</p>}
          </li>
        ))}
      </ul>
    </section>
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
  const me = useQuery(staffMeQuery.options());
  const done = useDone({ moved: 'The order was moved.', noted: 'The note was added.', refunded: 'The refund was asked of PayMongo.' });
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
            <Payments view={v} here={here} manager={me.data?.member.role === 'manager'} />
            <Notes view={v} here={here} />
          </>
        )}
      </QueryState>
    </StaffPage>
  );
}
