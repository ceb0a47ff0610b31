import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { calls, DELIVERY, PICKUP, type BoardPage, type StatusCount } from '../../../api/contract.gen';
import { QueryState } from '../../../components/QueryState';
import { DoneMessage, Field, FormCall, FormMessage, useAccountForm, useDone } from '../../../components/form';
import { fillTemplate } from '../../../lib/keys';
import { formatPhp } from '../../../lib/money';
import { usePage, usePageParam } from '../../../page';
import { boardQuery } from '../queries';
import { Filter, StaffFilters } from '../StaffFilters';
import { StaffPage } from '../StaffPage';

/** How often the board's first page looks for new orders. */
const POLL_MS = 15_000;

/** The board's address: its filters, then where the page starts (each left out when unset). */
const BOARD = '/staff/orders?status={status}&from={from}&to={to}&how={how}&paid={paid}&city={city}&barangay={barangay}&q={q}&before={before}';

function useFilters(): Record<string, string | undefined> {
  const status = usePageParam('status') ?? undefined;
  const from = usePageParam('from') ?? undefined;
  const to = usePageParam('to') ?? undefined;
  const how = usePageParam('how') ?? undefined;
  const paid = usePageParam('paid') ?? undefined;
  const city = usePageParam('city') ?? undefined;
  const barangay = usePageParam('barangay') ?? undefined;
  const q = usePageParam('q') ?? undefined;
  return { status, from, to, how, paid, city, barangay, q };
}

/** The board's address with `changes` made to the current filters (an unset value drops one). */
function boardLink(vars: Record<string, string | undefined>, changes: Record<string, string | undefined>): string {
  // No URLSearchParams: QuickJS, which renders on the server, has none.
  return fillTemplate(BOARD, { ...vars, before: undefined, ...changes });
}

function Counts({ counts, vars }: { counts: StatusCount[]; vars: Record<string, string | undefined> }) {
  return (
    <nav aria-label="Orders by status" className="status-tabs">
      <ul>
        <li>
          <a href={boardLink(vars, { status: undefined })} aria-current={vars.status ? undefined : 'page'}>
            All
          </a>
        </li>
        {counts.map((c) => (
          <li key={c.status.status}>
            <a href={boardLink(vars, { status: c.status.status })} aria-current={vars.status === c.status.status ? 'page' : undefined}>
              {`${c.status.label} (${c.count})`}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The filters. A barangay is chosen within the city filtered by: without JavaScript the city is
 * sent first (Filter), and the page then offers its barangays.
 */
function Filters({ vars, board }: { vars: Record<string, string | undefined>; board: BoardPage }) {
  const barangays = board.barangays;
  const filtered = Boolean(vars.q || vars.from || vars.to || vars.how || vars.paid || vars.city);
  return (
    <StaffFilters action="/staff/orders" label="Filter the orders" clear={filtered}>
      {vars.status && <input type="hidden" name="status" value={vars.status} />}
      <Filter id="board-q" label="Order number, name or mobile">
        <input id="board-q" name="q" defaultValue={vars.q} />
      </Filter>
      <Filter id="board-from" label="Placed from">
        <input id="board-from" name="from" type="date" defaultValue={vars.from} />
      </Filter>
      <Filter id="board-to" label="to">
        <input id="board-to" name="to" type="date" defaultValue={vars.to} />
      </Filter>
      <Filter id="board-how" label="Delivery or pickup">
        <select id="board-how" name="how" defaultValue={vars.how ?? ''}>
          <option value="">Both</option>
          <option value={String(DELIVERY)}>Delivery</option>
          <option value={String(PICKUP)}>Pickup</option>
        </select>
      </Filter>
      <Filter id="board-paid" label="Payment">
        <select id="board-paid" name="paid" defaultValue={vars.paid ?? ''}>
          <option value="">Cash or online</option>
          <option value="cash">Cash</option>
          <option value="online">Online</option>
        </select>
      </Filter>
      <Filter id="board-city" label="City">
        <select id="board-city" name="city" defaultValue={vars.city ?? ''}>
          <option value="">All cities</option>
          {board.cities.map((c) => (
            <option key={c.id} value={String(c.id)}>
              {c.name}
            </option>
          ))}
        </select>
      </Filter>
      {vars.city && barangays.length > 0 && (
        <Filter id="board-barangay" label="Barangay">
          <select id="board-barangay" name="barangay" defaultValue={vars.barangay ?? ''}>
            <option value="">All barangays of the city</option>
            {barangays.map((b) => (
              <option key={b.id} value={String(b.id)}>
                {b.name}
              </option>
            ))}
          </select>
        </Filter>
      )}
    </StaffFilters>
  );
}

/** The orders, one line each on a desk (the address cut short, whole on hover), a card each on a phone. */
function Table({ board }: { board: BoardPage }) {
  return (
    <table className="staff-table cards">
      <caption>Orders, newest first (Manila time)</caption>
      <thead>
        <tr>
          <th scope="col">Select</th>
          <th scope="col">Order</th>
          <th scope="col">Placed</th>
          <th scope="col">Status</th>
          <th scope="col">How</th>
          <th scope="col">Payment</th>
          <th scope="col">Contact</th>
          <th scope="col">Where</th>
          <th scope="col" className="num">
            Total
          </th>
        </tr>
      </thead>
      <tbody>
        {board.orders.map((o) => (
          <tr key={o.id}>
            <td className="select">
              <input type="checkbox" name="order_ids" value={String(o.id)} aria-label={`Select ${o.number}`} />
            </td>
            <td className="nowrap">
              <a href={`/staff/orders/${o.id}`}>{o.number}</a>
            </td>
            <td className="nowrap" data-label="Placed">
              {o.placed_at}
            </td>
            <td className="nowrap" data-label="Status">
              {o.status.label}
            </td>
            <td className="nowrap" data-label="How">
              {o.fulfillment}
            </td>
            <td className="nowrap" data-label="Payment">
              {o.payment}
            </td>
            <td className="nowrap" data-label="Contact">
              {o.contact_name} <a href={`tel:${o.mobile}`}>{o.mobile}</a>
            </td>
            <td className="clip" title={o.place} data-label="Where">
              {o.place}
            </td>
            <td className="num" data-label="Total">
              {formatPhp(o.total)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The orders board: counts per status, filters, and the selected orders moved together. */
export function Board() {
  const vars = useFilters();
  const page = usePage();
  // Keyed as the server loaded it (the page's own variables). The first page looks again every
  // 15 seconds, so new orders appear without a reload (with JavaScript; without it, Refresh).
  const first = !page.vars.before;
  const board = useQuery({ ...boardQuery.options(page.vars), refetchInterval: first ? POLL_MS : false });
  const placed = board.data?.counts.find((c) => c.status.status === 'placed')?.count ?? 0;
  useEffect(() => {
    // The tab says how many orders wait, seen from another tab too.
    document.title = placed > 0 ? `(${placed}) Orders | Tala Brewing Co.` : 'Orders | Tala Brewing Co.';
  }, [placed]);
  const done = useDone({ moved: 'The orders were moved.' });
  const [state, submit] = useAccountForm();
  return (
    <StaffPage current="/staff/orders" id="staff-orders" title="Orders">
      <DoneMessage text={done} />
      <QueryState query={board} loading="Loading the orders…" error="We could not load the orders. Please reload the page." retry>
        {(b) => (
          <>
            <Counts counts={b.counts} vars={vars} />
            <p className="board-refresh">
              <a href={boardLink(vars, {})}>Refresh</a>
            </p>
            <Filters vars={vars} board={b} />
            {b.orders.length === 0 ? (
              <p className="empty">No orders here.</p>
            ) : (
              <form method="post" action="/staff/orders" onSubmit={submit} noValidate>
                <FormCall call={calls.staffOrderStatus} />
                <Table board={b} />
                <fieldset>
                  <legend>Move the selected orders</legend>
                  <label htmlFor="move-status">To</label>
                  <select id="move-status" name="status" defaultValue="confirmed">
                    {b.counts
                      .filter((c) => c.status.status !== 'placed')
                      .map((c) => (
                        <option key={c.status.status} value={c.status.status}>
                          {c.status.label}
                        </option>
                      ))}
                  </select>
                  <Field name="reason" label="Why (needed to cancel; the shopper is told)" state={state} />
                  <FormMessage state={state} fields={['reason']} />
                  <button type="submit" disabled={state.busy}>
                    Move Selected
                  </button>
                </fieldset>
              </form>
            )}
            {b.next_before !== null && (
              <p>
                <a href={boardLink(vars, { before: String(b.next_before) })} rel="next">
                  Older orders
                </a>
              </p>
            )}
          </>
        )}
      </QueryState>
    </StaffPage>
  );
}
