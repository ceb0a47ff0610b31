import { useQuery } from '@tanstack/react-query';
import type { DayReport as Report, ReasonLine } from '../../../api/contract.gen';
import { QueryState } from '../../../components/QueryState';
import { formatPhp } from '../../../lib/money';
import { usePage } from '../../../page';
import { riderDifference, shortOrOver } from './cash';
import { csvHref, dayCsv } from './csv';
import { dayQuery } from '../queries';
import { StaffPage } from '../StaffPage';

function Reasons({ title, lines, empty }: { title: string; lines: ReasonLine[]; empty: string }) {
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      {lines.length === 0 ? (
        <p className="empty">{empty}</p>
      ) : (
        <ul>
          {lines.map((l) => (
            <li key={`${l.order_id}-${l.reason}`}>
              <a href={`/staff/orders/${l.order_id}`}>{l.number}</a>
              {`: ${l.reason || 'no reason given'}`}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Figures({ d }: { d: Report }) {
  const t = d.totals;
  const rows: [string, string][] = [
    ['Orders placed', String(d.orders)],
    ['Revenue (orders not cancelled)', formatPhp(d.revenue)],
    ['Cash expected from the runs', formatPhp(t.cash_expected)],
    ['Cash the riders reported', formatPhp(t.cash_reported)],
    ['Cash handed in (closed runs)', formatPhp(d.cash_handed_in)],
    ['Paid online', formatPhp(d.online_received)],
    ...d.online.map((m): [string, string] => [`Paid online: ${m.method}`, `${formatPhp(m.amount)} (${m.payments})`]),
    ['Refunded of payments taken (asked this day)', formatPhp(d.refunded)],
    ['Stops delivered / failed / not yet', `${t.delivered} / ${t.failed} / ${t.pending}`],
    ['Empty cases expected back / returned', `${t.empties_expected} / ${t.empties_returned}`],
    ...d.containers_out.map((c): [string, string] => [`Containers out: ${c.name}`, String(c.cases)]),
  ];
  return (
    <table>
      <caption>{`The day in figures, ${d.day}`}</caption>
      <tbody>
        {rows.map(([name, value]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The day by rider: the cash their runs expect, they reported and handed in, the difference
 * (handed in against expected, over their closed runs), the empties, and the notes on what
 * differs (a stop's, a run's close).
 */
function ByRider({ d }: { d: Report }) {
  if (d.riders.length === 0) return null;
  return (
    <section aria-label="By rider">
      <h2>By rider</h2>
      <table>
        <caption className="visually-hidden">Cash and empties by rider</caption>
        <thead>
          <tr>
            <th scope="col">Rider</th>
            <th scope="col">Runs (closed)</th>
            <th scope="col">Cash expected</th>
            <th scope="col">Reported</th>
            <th scope="col">Handed in</th>
            <th scope="col">Difference</th>
            <th scope="col">Empties expected / back</th>
          </tr>
        </thead>
        <tbody>
          {d.riders.map((r) => (
            <tr key={r.rider_id}>
              <th scope="row">{r.rider}</th>
              <td>{`${r.runs} (${r.closed})`}</td>
              <td>{formatPhp(r.cash_expected)}</td>
              <td>{formatPhp(r.cash_reported)}</td>
              <td>{r.closed > 0 ? `${formatPhp(r.cash_handed_in)} of ${formatPhp(r.cash_expected_closed)} expected by the closed runs` : 'Not yet'}</td>
              <td>{riderDifference(r)}</td>
              <td>{`${r.empties_expected} / ${r.empties_returned}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {d.riders
        .filter((r) => r.notes.length > 0)
        .map((r) => (
          <div key={r.rider_id}>
            <h3>{`Notes: ${r.rider}`}</h3>
            <ul>
              {r.notes.map((n) => (
                <li key={n.href}>
                  <a href={n.href}>{n.about}</a>
                  {`: ${n.note}`}
                </li>
              ))}
            </ul>
          </div>
        ))}
    </section>
  );
}

/** A day of the depot for the manager: orders, revenue, runs, cash and empties, what went wrong; printable and as CSV. */
export function DayReport() {
  const page = usePage();
  const day = useQuery(dayQuery.options(page.vars));
  return (
    <StaffPage current="/staff/day" id="staff-day" title="Day Report">
      <QueryState query={day} loading="Loading the report…" error="We could not load the report. Please reload the page." retry>
        {(d) => (
          <div className="paper-a4">
            <form method="get" action="/staff/day" className="inline-form no-print" aria-label="Choose the day">
              <label htmlFor="report-day">Day</label>
              <input id="report-day" name="day" type="date" defaultValue={d.day} />
              <button type="submit">Show</button>
            </form>
            <p className="no-print">
              <a href={csvHref(dayCsv(d))} download={`day-${d.day}.csv`}>
                Download as CSV
              </a>
            </p>
            <Figures d={d} />
            {d.runs.length === 0 ? (
              <p className="empty">No runs this day.</p>
            ) : (
              <table>
                <caption>Runs</caption>
                <thead>
                  <tr>
                    <th scope="col">Run</th>
                    <th scope="col">Rider</th>
                    <th scope="col">State</th>
                    <th scope="col">Delivered</th>
                    <th scope="col">Failed</th>
                    <th scope="col">Cash reported</th>
                    <th scope="col">Handed in</th>
                  </tr>
                </thead>
                <tbody>
                  {d.runs.map((r) => (
                    <tr key={r.run.id}>
                      <td>
                        <a href={`/staff/runs/${r.run.id}`}>{`Run ${r.run.id}`}</a>
                      </td>
                      <td>{r.run.rider}</td>
                      <td>{r.run.state_label}</td>
                      <td>{r.totals.delivered}</td>
                      <td>{r.totals.failed}</td>
                      <td>{formatPhp(r.totals.cash_reported)}</td>
                      <td>{r.cash_handed_in === null ? 'Not yet' : `${formatPhp(r.cash_handed_in)}${r.expected_difference ? ` (${shortOrOver(r.expected_difference) ?? ''} of expected)` : ''}${r.close_note ? `: ${r.close_note}` : ''}`}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <ByRider d={d} />
            <Reasons title="Differences" lines={d.flagged} empty="Every delivered stop brought what it should." />
            <Reasons title="Failed deliveries" lines={d.failed} empty="No delivery failed." />
            <Reasons title="Cancelled orders" lines={d.cancelled} empty="No order placed this day was cancelled." />
            <Reasons title="Online payments to refund (any day)" lines={d.to_refund} empty="No payment received online is owed back." />
            <Reasons title="Refunds" lines={d.refunds} empty="No refund was asked for this day." />
          </div>
        )}
      </QueryState>
    </StaffPage>
  );
}
