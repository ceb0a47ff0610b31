import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { calls, MAX_STOPS, type RunView, type StopView } from '../../../api/contract.gen';
import { QueryState } from '../../../components/QueryState';
import { DoneMessage, Field, useDone, type FormState } from '../../../components/form';
import { formatPhp } from '../../../lib/money';
import { usePage, usePageParam } from '../../../page';
import { runQuery, staffMeQuery } from '../queries';
import { NONE_WAITING, WaitingOrders } from './Runs';
import { closeHint, shortOrOver, toCollect } from './cash';
import { RiderStops, StopForm, StopOutcome } from './RiderStop';
import { StaffForm } from '../StaffForm';
import { StaffPage } from '../StaffPage';

/** What a stop hands over and takes back: items, cash, empties. */
export function StopDetails({ s }: { s: StopView }) {
  return (
    <>
      <p>
        {s.contact_name} <a href={`tel:${s.mobile}`}>{s.mobile}</a>
      </p>
      <p>{s.address ? `${s.address}, ${s.place}` : s.place}</p>
      {s.notes && <p>{`The shopper's note: ${s.notes}`}</p>}
      <ul>
        {s.items.map((i) => (
          <li key={`${i.product_name}-${i.case_name}`}>{`${i.quantity} × ${i.product_name} (${i.case_name})`}</li>
        ))}
      </ul>
      <p>
        <strong>{toCollect(s)}</strong>
        {s.empties.length > 0 ? `; empties: ${s.empties.map((e) => `${e.cases} × ${e.name}`).join(', ')}` : '; no empties'}
      </p>
    </>
  );
}

/** Moves a stop of a planned run up or down, or takes it off. */
function Arrange({ run, s, first, last, here }: { run: RunView; s: StopView; first: boolean; last: boolean; here: string }) {
  const buttons: [string, string, boolean][] = [
    ['up', 'Move Up', !first],
    ['down', 'Move Down', !last],
    ['remove', 'Take Off Run', true],
  ];
  return (
    <div className="inline-form">
      {buttons
        .filter(([, , shown]) => shown)
        .map(([move, label]) => (
          <StaffForm key={move} id={`${move}-${s.order_id}`} call={calls.staffRunArrange} action={here} className="inline-form">
            {(state) => (
              <>
                <input type="hidden" name="runId" value={String(run.run.id)} />
                <input type="hidden" name="order_id" value={String(s.order_id)} />
                <input type="hidden" name="move" value={move} />
                <button type="submit" className="secondary" disabled={state.busy}>
                  {label}
                  <span className="visually-hidden">{` ${s.number}`}</span>
                </button>
              </>
            )}
          </StaffForm>
        ))}
    </div>
  );
}

/** The run's cash and empties: expected, reported, handed in. */
export function Reconciliation({ run }: { run: RunView }) {
  const t = run.totals;
  return (
    <table>
      <caption>{`Reconciliation: ${t.delivered} delivered, ${t.failed} failed, ${t.pending} not yet`}</caption>
      <tbody>
        <tr>
          <th scope="row">Cash expected</th>
          <td>{formatPhp(t.cash_expected)}</td>
        </tr>
        <tr>
          <th scope="row">Cash the rider reported</th>
          <td>{formatPhp(t.cash_reported)}</td>
        </tr>
        {run.cash_handed_in !== null && (
          <>
            <tr>
              <th scope="row">Cash handed in</th>
              <td>{formatPhp(run.cash_handed_in)}</td>
            </tr>
            <tr>
              <th scope="row">Against what the run expects</th>
              <td>{shortOrOver(run.expected_difference ?? 0) ?? 'As expected'}</td>
            </tr>
            <tr>
              <th scope="row">Against what the rider reported</th>
              <td>{shortOrOver(run.cash_difference ?? 0) ?? 'As reported'}</td>
            </tr>
            {run.close_note && (
              <tr>
                <th scope="row">Why it differs</th>
                <td>{run.close_note}</td>
              </tr>
            )}
          </>
        )}
        <tr>
          <th scope="row">Empty cases expected</th>
          <td>{t.empties_expected}</td>
        </tr>
        <tr>
          <th scope="row">Empty cases returned</th>
          <td>{t.empties_returned}</td>
        </tr>
      </tbody>
    </table>
  );
}

/** The run's actions for dispatchers and managers: add orders, send out, close. */
function RunActions({ run, here }: { run: RunView; here: string }) {
  const id = String(run.run.id);
  return (
    <>
      {run.can_arrange && run.stops.length >= MAX_STOPS && (
        <p className="empty">This run is full: a run takes at most {MAX_STOPS} stops.</p>
      )}
      {run.can_arrange && run.stops.length < MAX_STOPS && run.waiting.length === 0 && (
        <p className="empty">{NONE_WAITING}</p>
      )}
      {run.can_arrange && run.waiting.length > 0 && (
        <StaffForm id="add" call={calls.staffRunStops} action={here} fields={['order_ids']}>
          {(state) => (
            <>
              <input type="hidden" name="runId" value={id} />
              <p>
                The orders waiting nearest this run's stops (in their barangays, then their cities, then anywhere), oldest
                first, as many as the run has room for ({MAX_STOPS} stops at most).
              </p>
              <WaitingOrders orders={run.waiting} state={state} legend="Add orders to this run" />
              <button type="submit" className="secondary" disabled={state.busy}>
                Add to Run
              </button>
            </>
          )}
        </StaffForm>
      )}
      {run.can_send && (
        <StaffForm id="send" call={calls.staffRunSend} action={here}>
          {(state) => (
            <>
              <input type="hidden" name="runId" value={id} />
              <p>Sending the run out moves its orders out for delivery and tells each shopper.</p>
              <button type="submit" disabled={state.busy}>
                Send Out
              </button>
            </>
          )}
        </StaffForm>
      )}
      {run.can_close && (
        <StaffForm id="close" call={calls.staffRunClose} action={here} fields={['cash_handed_in', 'note']}>
          {(state) => (
            <>
              <input type="hidden" name="runId" value={id} />
              <CloseCash run={run} state={state} />
              <Field name="note" label="Why the cash differs (needed when it does)" state={state} hint="Goes with the run, its audit entry and the day report." autoComplete="off" />
              <button type="submit" disabled={state.busy}>
                Close Run
              </button>
            </>
          )}
        </StaffForm>
      )}
    </>
  );
}

/**
 * The cash handed in, counted, never filled in: the sums the rider reported and the run expects
 * are a hint to count against, and how the cash typed stands against what the run expects is
 * told beside it as it is typed (with JavaScript; without, after a refusal, from what was sent).
 */
function CloseCash({ run, state }: { run: RunView; state: FormState }) {
  const [typed, setTyped] = useState(state.values.cash_handed_in ?? '');
  const errors = state.errors.cash_handed_in ?? [];
  const live = closeHint(typed, run.totals.cash_expected);
  const described = ['close-cash-hint', 'close-cash-live', errors.length ? 'close-cash-error' : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor="field-cash_handed_in">Cash the rider handed in (pesos)</label>
      <p className="field-hint" id="close-cash-hint">{`Count it. The rider reported ${formatPhp(run.totals.cash_reported)}; the run expects ${formatPhp(run.totals.cash_expected)}.`}</p>
      <input id="field-cash_handed_in" name="cash_handed_in" type="text" inputMode="numeric" autoComplete="off" required defaultValue={state.values.cash_handed_in} onInput={(e) => setTyped(e.currentTarget.value)} aria-invalid={errors.length > 0 || undefined} aria-describedby={described} />
      <p className="field-hint close-live" id="close-cash-live" aria-live="polite">
        {live ?? ''}
      </p>
      {errors.length > 0 && (
        <p className="hint" id="close-cash-error">
          {errors.join(' ')}
        </p>
      )}
    </div>
  );
}

/** The links to a run's printable pick list and run sheet, on A4 or a receipt printer. */
function PrintLinks({ id }: { id: number }) {
  return (
    <ul className="paper-choice no-print">
      <li>
        <a href={`/staff/runs/${id}/pick-list`}>Pick list</a> (<a href={`/staff/runs/${id}/pick-list?paper=receipt`}>80 mm</a>)
      </li>
      <li>
        <a href={`/staff/runs/${id}/sheet`}>Run sheet</a> (<a href={`/staff/runs/${id}/sheet?paper=receipt`}>80 mm</a>)
      </li>
    </ul>
  );
}

/** The done message after a stop ended (`?done=ended&stop={orderId}`): which stop, and how it ended. */
function endedText(r: RunView, stop: string | null): string | null {
  const s = r.stops.find((x) => String(x.order_id) === stop);
  if (!s || s.outcome === 'pending') return null;
  return `Stop ${s.seq}, ${s.number}, was marked ${s.outcome === 'delivered' ? 'delivered' : 'failed: it waits for another run'}.`;
}

/**
 * Every stop of the run with what it hands over and how it ended, and what the member may do to
 * it: arrange it (planned), end it with its form (out). The first open stop is `#current-stop`,
 * where ending a stop lands.
 */
function AllStops({ r, here }: { r: RunView; here: string }) {
  if (r.stops.length === 0) return <p className="empty">No stops.</p>;
  const current = r.can_end_stops ? r.stops.find((s) => s.outcome === 'pending') : undefined;
  return (
    <ol className="run-stops">
      {r.stops.map((s: StopView, n) => (
        <li key={s.order_id} id={`stop-${s.order_id}`} className="run-stop">
          <h3 id={s === current ? 'current-stop' : undefined}>{`${s.seq}. ${s.number}`}</h3>
          <StopDetails s={s} />
          <StopOutcome s={s} />
          {r.can_arrange && <Arrange run={r} s={s} first={n === 0} last={n === r.stops.length - 1} here={here} />}
          {r.can_end_stops && s.outcome === 'pending' && <StopForm run={r} s={s} here={here} />}
        </li>
      ))}
    </ol>
  );
}

/**
 * One run: its stops (the run sheet, with the form that ends each), its actions, its
 * reconciliation. Its rider, while it is out, sees one stop at a time ([`RiderStops`]) with the
 * reconciliation under them; dispatchers and managers see every stop, on a desk or a phone alike
 * (they arrange, end a stop for a rider who calls, and close the run).
 */
export function Run() {
  const { vars } = usePage();
  const here = `/staff/runs/${vars.runId ?? ''}`;
  const view = useQuery(runQuery.options(vars));
  const me = useQuery(staffMeQuery.options());
  const stop = usePageParam('stop');
  const doneParam = usePageParam('done');
  const done = useDone({
    created: 'The run is planned: order its stops, then send it out.',
    added: 'The orders were added.',
    arranged: 'The stops were arranged.',
    sent: 'The run is out: its orders are out for delivery.',
    ended: 'The stop was marked.',
    closed: 'The run is closed.',
  });
  const ended = view.data && doneParam === 'ended' ? endedText(view.data, stop) : null;
  return (
    <StaffPage current="/staff/runs" action={here} id="staff-run" title={view.data ? `Run ${view.data.run.id}` : 'Run'}>
      <DoneMessage text={ended ?? done} />
      <QueryState query={view} loading="Loading the run…" error="We could not load the run. Please reload the page." retry>
        {(r) => {
          const line = <p>{`${r.run.state_label} · ${r.run.rider} · ${r.run.day} · ${r.run.stops} stop(s)`}</p>;
          if (me.data?.member.role === 'rider' && r.run.state === 'out') {
            return (
              <>
                {line}
                <RiderStops run={r} here={here} />
                <h2>The run</h2>
                <Reconciliation run={r} />
                <PrintLinks id={r.run.id} />
              </>
            );
          }
          return (
            <>
              {line}
              <PrintLinks id={r.run.id} />
              <Reconciliation run={r} />
              <h2>Stops</h2>
              <AllStops r={r} here={here} />
              <RunActions run={r} here={here} />
            </>
          );
        }}
      </QueryState>
    </StaffPage>
  );
}
