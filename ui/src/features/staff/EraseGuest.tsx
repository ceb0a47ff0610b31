import { useQuery } from '@tanstack/react-query';
import { calls, type GuestData as Found } from '../../api/contract.gen';
import { QueryState } from '../../components/QueryState';
import { DoneMessage, FormCall, FormMessage, useAccountForm, useDone } from '../../components/form';
import { formatPhp } from '../../lib/money';
import { usePage, usePageParam } from '../../page';
import { guestDataQuery } from './queries';
import { StaffPage } from './StaffPage';

/** The confirmation: what erasing the guest takes, and the button that does it. */
function Confirm({ found }: { found: Found & { contact: string } }) {
  const [state, submit] = useAccountForm();
  const first = found.orders[0]?.placed_at;
  const last = found.orders[found.orders.length - 1]?.placed_at;
  return (
    <section aria-labelledby="guest-found">
      <h2 id="guest-found">
        {found.count} guest order{found.count === 1 ? '' : 's'} with {found.contact}
      </h2>
      {found.count > 0 && (
        <>
          <p>
            Placed from {first} to {last}. Their contact name, email, mobile number, address and note will be blanked; the orders stay for the
            books.
          </p>
          <table>
            <caption>The guest orders found (Manila time)</caption>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Placed</th>
                <th scope="col">Status</th>
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {found.orders.map((o) => (
                <tr key={o.id}>
                  <td>{o.number}</td>
                  <td>{o.placed_at}</td>
                  <td>{o.status_label}</td>
                  <td>{formatPhp(o.total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <p>
        {found.newsletter > 0 ? `${found.newsletter} newsletter signup${found.newsletter === 1 ? '' : 's'} will be removed.` : 'No newsletter signup to remove.'}
      </p>
      {found.count + found.newsletter > 0 && (
        <form method="post" action="/staff/guest-data" onSubmit={submit}>
          <FormCall call={calls.staffEraseGuest} />
          <input type="hidden" name="contact" value={found.contact} />
          <FormMessage state={state} />
          <button type="submit" className="danger" disabled={state.busy}>
            Erase This Guest&apos;s Personal Data
          </button>
        </form>
      )}
    </section>
  );
}

/** A manager finds a guest's orders by email or mobile and erases their personal data on request. */
export function EraseGuest() {
  const contact = usePageParam('contact') ?? '';
  const found = useQuery(guestDataQuery.options(usePage().vars));
  const done = useDone({ erased: "Erased: the guest's orders no longer hold their personal data, and their newsletter signup is gone. The audit log records it." });
  return (
    <StaffPage current="/staff/guest-data" id="staff-guest-data" title="Erase a Guest's Data">
      <p>
        When a guest asks us to erase their personal data, find their orders by the email address or mobile number they ordered with. Members
        erase theirs by deleting their account.
      </p>
      <DoneMessage text={done} />
      <form method="get" action="/staff/guest-data" className="inline-form" role="search">
        <label htmlFor="guest-contact">Email address or mobile number</label>
        <input id="guest-contact" name="contact" defaultValue={contact} autoComplete="off" />
        <button type="submit">Find Guest Orders</button>
      </form>
      <QueryState query={found} loading="Looking for the guest's orders…" error="We could not look for the guest's orders. Please reload the page." retry>
        {(f) =>
          f.problem ? (
            <p role="alert">{f.problem}</p>
          ) : f.contact === null ? null : (
            <Confirm found={{ ...f, contact: f.contact }} />
          )
        }
      </QueryState>
    </StaffPage>
  );
}
