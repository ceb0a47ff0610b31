import { useQuery } from '@tanstack/react-query';
import { calls, type RunLine, type RunsPage, type WaitingOrder } from '../../../api/contract.gen';
import { QueryState } from '../../../components/QueryState';
import { DoneMessage, useDone, type FormState } from '../../../components/form';
import { formatPhp } from '../../../lib/money';
import { usePage } from '../../../page';
import { runsQuery, staffMeQuery } from '../queries';
import { FieldErrors, StaffForm } from '../StaffForm';
import { StaffPage } from '../StaffPage';

/** Orders to tick for a run (`order_ids`), by barangay as they wait. */
/** What the staff read when no order waits for a run. */
export const NONE_WAITING = 'No confirmed delivery orders wait for a run.';

export function WaitingOrders({ orders, state, legend }: { orders: WaitingOrder[]; state: FormState; legend: string }) {
  return (
    <fieldset aria-describedby={state.errors.order_ids ? 'order_ids-error' : undefined}>
      <legend>{legend}</legend>
      <table>
        <caption className="visually-hidden">Confirmed delivery orders on no run, by barangay</caption>
        <thead>
          <tr>
            <th scope="col">Select</th>
            <th scope="col">Order</th>
            <th scope="col">Where</th>
            <th scope="col">Contact</th>
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((o) => (
            <tr key={o.id}>
              <td>
                <input type="checkbox" name="order_ids" value={String(o.id)} id={`wait-${o.id}`} />
              </td>
              <td>
                <label htmlFor={`wait-${o.id}`}>{o.number}</label>
              </td>
              <td>{o.place}</td>
              <td>{o.contact_name}</td>
              <td>{formatPhp(o.total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <FieldErrors state={state} name="order_ids" id="order_ids-error" />
    </fieldset>
  );
}

function Plan({ page }: { page: RunsPage }) {
  if (page.riders.length === 0) return <p className="empty">No riders yet: a manager adds them under Staff.</p>;
  if (page.waiting.length === 0) return <p className="empty">{NONE_WAITING}</p>;
  return (
    <StaffForm id="plan" call={calls.staffRunCreate} action="/staff/runs" fields={['rider_id', 'day', 'order_ids']}>
      {(state) => (
        <>
          <div className="field">
            <label htmlFor="run-rider">Rider</label>
            <select id="run-rider" name="rider_id" defaultValue={state.values.rider_id ?? ''} aria-describedby={state.errors.rider_id ? 'rider_id-error' : undefined}>
              <option value="">Choose the rider</option>
              {page.riders.map((r) => (
                <option key={r.id} value={String(r.id)}>
                  {r.name}
                </option>
              ))}
            </select>
            <FieldErrors state={state} name="rider_id" id="rider_id-error" />
          </div>
          <div className="field">
            <label htmlFor="run-day">Day</label>
            <input id="run-day" name="day" type="date" min={page.today} defaultValue={state.values.day ?? (page.day < page.today ? page.today : page.day)} aria-describedby={state.errors.day ? 'day-error' : undefined} />
            <FieldErrors state={state} name="day" id="day-error" />
          </div>
          <WaitingOrders orders={page.waiting} state={state} legend="Orders for the run (stops are grouped by barangay; order them after)" />
          <button type="submit" disabled={state.busy}>
            Plan Run
          </button>
        </>
      )}
    </StaffForm>
  );
}

/** Runs by their day, in the order given (by day). */
function byDay(runs: RunLine[]): [string, RunLine[]][] {
  const days: [string, RunLine[]][] = [];
  for (const r of runs) {
    const last = days[days.length - 1];
    if (last && last[0] === r.day) last[1].push(r);
    else days.push([r.day, [r]]);
  }
  return days;
}

/** A day's name in a caption: today and tomorrow by name, with the date. */
function dayName(day: string, p: RunsPage): string {
  if (day === p.today) return `Today, ${day}`;
  const [y, m, d] = p.today.split('-').map(Number);
  const next = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  if (day === next) return `Tomorrow, ${day}`;
  return day < p.today ? `${day} (still open)` : day;
}

/** Runs in a table, one a row. */
function RunTable({ caption, runs }: { caption: string; runs: RunLine[] }) {
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Run</th>
          <th scope="col">Day</th>
          <th scope="col">Rider</th>
          <th scope="col">State</th>
          <th scope="col">Stops</th>
          <th scope="col">Delivered</th>
          <th scope="col">Failed</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <tr key={r.id}>
            <td>
              <a href={`/staff/runs/${r.id}`}>{`Run ${r.id}`}</a>
            </td>
            <td>{r.day}</td>
            <td>{r.rider}</td>
            <td>{r.state_label}</td>
            <td>{r.stops}</td>
            <td>{r.delivered}</td>
            <td>{r.failed}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The runs of the days shown: a day's, in one table (dispatchers and managers, or a day asked);
 * several days' (a rider's: today and the next 7, any run still open from earlier first), a table
 * a day with runs.
 */
function RunList({ p }: { p: RunsPage }) {
  if (p.day === p.until) {
    return p.runs.length === 0 ? <p className="empty">{`No runs on ${p.day}.`}</p> : <RunTable caption={`Runs of ${p.day}`} runs={p.runs} />;
  }
  if (p.runs.length === 0) return <p className="empty">{`No runs from ${p.day} to ${p.until}.`}</p>;
  return (
    <>
      <p>{`Runs from ${p.day} to ${p.until}, by day.`}</p>
      {byDay(p.runs).map(([day, runs]) => (
        <RunTable key={day} caption={dayName(day, p)} runs={runs} />
      ))}
    </>
  );
}

/** A day's runs; dispatchers and managers plan new ones from the orders waiting. A rider sees their own, of today and the coming days. */
export function Runs() {
  const page = usePage();
  const runs = useQuery(runsQuery.options(page.vars));
  const me = useQuery(staffMeQuery.options());
  const works = me.data !== undefined && me.data.member.role !== 'rider';
  const done = useDone({ deleted: 'The run had no stop left and was deleted.' });
  return (
    <StaffPage current="/staff/runs" id="staff-runs" title="Runs">
      <DoneMessage text={done} />
      <QueryState query={runs} loading="Loading the runs…" error="We could not load the runs. Please reload the page." retry>
        {(p) => (
          <>
            <form method="get" action="/staff/runs" className="inline-form" aria-label="Choose the day">
              <label htmlFor="runs-day">Day</label>
              <input id="runs-day" name="day" type="date" defaultValue={p.day} />
              <button type="submit">Show</button>
              {p.day !== p.today && <a href="/staff/runs">Today</a>}
            </form>
            <RunList p={p} />
            {works && (
              <section aria-labelledby="plan-title">
                <h2 id="plan-title">Plan a run</h2>
                <Plan page={p} />
              </section>
            )}
          </>
        )}
      </QueryState>
    </StaffPage>
  );
}
