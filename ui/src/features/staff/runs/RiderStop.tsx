// A stop as the person who ends it sees it: one form with its outcome (the button pressed says
// delivered or failed), the cash and the empties typed by whoever counted them, never filled in
// from the order (the empties must be typed when the shopper returns some). A rider on a run
// that is out sees one stop at a time, in run order: the current stop in full (call and map
// links, what to hand over and collect, its form), the coming stops folded under it, the ended
// ones with their outcome.
import { calls, type RunView, type StopView } from '../../../api/contract.gen';
import { Field, usePageForm } from '../../../components/form';
import { formatPhp } from '../../../lib/money';
import { toCollect } from './cash';
import { FieldErrors, StaffForm } from '../StaffForm';

/** Where a stop is: its street address and place, or the place alone. */
export function whereOf(s: StopView): string {
  return s.address ? `${s.address}, ${s.place}` : s.place;
}

/**
 * A maps search of a stop's address. Google Maps' search address rather than a `geo:` link: the
 * same link opens the maps app on Android and on an iPhone (which has no `geo:`) and a browser's
 * map anywhere else, and it searches the address as typed, where `geo:` needs coordinates the
 * store does not keep.
 */
export function mapLink(s: StopView): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(whereOf(s))}`;
}

/** How a stop ended, or that it has not. */
export function StopOutcome({ s }: { s: StopView }) {
  if (s.outcome === 'pending') return <p>Not delivered yet.</p>;
  if (s.outcome === 'failed') return <p>{`Failed: ${s.reason}${s.note ? ` (${s.note})` : ''}`}</p>;
  return (
    <>
      <p>{`Delivered: ${formatPhp(s.cash_received ?? 0)} received, ${s.empties_returned ?? 0} empty case(s) back${s.note ? ` (${s.note})` : ''}.`}</p>
      {s.differences.length > 0 && <p className="differences">{s.differences.join('; ')}</p>}
    </>
  );
}

/**
 * The empty cases a stop should give back, as the empties field's hint. When the shopper returns
 * some, the count is typed to mark it delivered (0 when none came back: empty is no answer);
 * when none are due, empty means 0.
 */
function emptiesHint(s: StopView): string {
  return s.empties.length > 0 ? `Take back ${s.empties.map((e) => `${e.cases} × ${e.name}`).join(', ')}. Type how many came back (0 if none).` : 'None to take back: leave it empty';
}

/**
 * The one form that ends a stop (`end-{orderId}`): cash received, empties taken back and a note
 * for Mark Delivered, why for Mark Failed, each button sending its `outcome`. Nothing is filled
 * in: the cash to collect and the empties to take back are text beside the fields. The server
 * reads only what the outcome needs (a reason with a delivery, cash with a failure are ignored).
 */
export function StopForm({ run, s, here }: { run: RunView; s: StopView; here: string }) {
  const o = s.order_id;
  return (
    <StaffForm id={`end-${o}`} call={calls.staffRunStop} action={here} className="end-stop" fields={['cash_received', 'empties_returned', 'reason', 'note']}>
      {(state) => (
        <>
          <input type="hidden" name="runId" value={String(run.run.id)} />
          <input type="hidden" name="orderId" value={String(o)} />
          <Field id={`cash-${o}`} name="cash_received" label="Cash received (pesos)" hint={toCollect(s)} state={state} inputMode="decimal" autoComplete="off" />
          <Field id={`empties-${o}`} name="empties_returned" label="Empty cases taken back" hint={emptiesHint(s)} state={state} inputMode="numeric" autoComplete="off" />
          <Field id={`note-${o}`} name="note" label="Note (optional)" hint="Goes with the stop, delivered or failed." state={state} autoComplete="off" />
          <button type="submit" name="outcome" value="delivered" disabled={state.busy}>
            Mark Delivered<span className="visually-hidden">{` ${s.number}`}</span>
          </button>
          <fieldset className="end-failed">
            <legend>Not delivered?</legend>
            <div className="field">
              <label htmlFor={`reason-${o}`}>Why</label>
              <select id={`reason-${o}`} name="reason" defaultValue={state.values.reason ?? ''} aria-invalid={state.errors.reason ? true : undefined} aria-describedby={state.errors.reason ? `reason-${o}-error` : undefined}>
                <option value="">Choose why</option>
                {run.failure_reasons.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
              <FieldErrors state={state} name="reason" id={`reason-${o}-error`} />
            </div>
            <button type="submit" name="outcome" value="failed" className="secondary" disabled={state.busy}>
              Mark Failed<span className="visually-hidden">{` ${s.number}`}</span>
            </button>
          </fieldset>
        </>
      )}
    </StaffForm>
  );
}

/** A stop in full for its rider: who and where (call, map), what to hand over, and its form. */
function StopCard({ run, s, here }: { run: RunView; s: StopView; here: string }) {
  return (
    <>
      <p className="rider-who">
        {s.contact_name}
        <br />
        {whereOf(s)}
      </p>
      <p className="rider-links">
        <a className="button secondary" href={`tel:${s.mobile}`}>{`Call ${s.mobile}`}</a>
        <a className="button secondary" href={mapLink(s)}>
          Map<span className="visually-hidden">{` of ${whereOf(s)}`}</span>
        </a>
      </p>
      {s.notes && <p>{`The shopper's note: ${s.notes}`}</p>}
      <p className="rider-hand">Hand over:</p>
      <ul>
        {s.items.map((i) => (
          <li key={`${i.product_name}-${i.case_name}`}>{`${i.quantity} × ${i.product_name} (${i.case_name})`}</li>
        ))}
      </ul>
      <StopForm run={run} s={s} here={here} />
    </>
  );
}

/** A coming stop, folded to its number and address; opened, it is whole (to end it out of turn), and opened for its form's messages after a refusal without JavaScript. */
function ComingStop({ run, s, here }: { run: RunView; s: StopView; here: string }) {
  const refused = usePageForm((v) => v.form === `end-${s.order_id}`) !== null;
  return (
    <li id={`stop-${s.order_id}`}>
      <details open={refused || undefined}>
        <summary>
          <span className="rider-seq">{`${s.seq}.`}</span> {s.address || s.place}
          <span className="visually-hidden">{`, ${s.number}`}</span>
        </summary>
        <StopCard run={run} s={s} here={here} />
      </details>
    </li>
  );
}

/** The cash and empties a rider hands in once every stop has ended. */
function HandIn({ run }: { run: RunView }) {
  const t = run.totals;
  return (
    <p className="rider-stop" id="current-stop">
      <strong>Every stop has ended.</strong>
      {` Hand in ${formatPhp(t.cash_reported)} cash and ${t.empties_returned} empty case(s) at the depot.`}
    </p>
  );
}

/**
 * A run that is out, for its rider: the current stop (the first not ended, `#current-stop`, where
 * ending a stop lands), the coming stops, the ended ones.
 */
export function RiderStops({ run, here }: { run: RunView; here: string }) {
  const open = run.stops.filter((s) => s.outcome === 'pending');
  const ended = run.stops.filter((s) => s.outcome !== 'pending');
  const [current, ...coming] = open;
  return (
    <>
      {current ? (
        <section className="rider-stop" id="current-stop" aria-labelledby="current-stop-title">
          <h2 id="current-stop-title">{`Stop ${current.seq} of ${run.stops.length}: ${current.number}`}</h2>
          <StopCard run={run} s={current} here={here} />
        </section>
      ) : (
        <HandIn run={run} />
      )}
      {coming.length > 0 && (
        <section aria-labelledby="coming-title">
          <h2 id="coming-title">{`Coming next (${coming.length})`}</h2>
          <ol className="rider-list">
            {coming.map((s) => (
              <ComingStop key={s.order_id} run={run} s={s} here={here} />
            ))}
          </ol>
        </section>
      )}
      {ended.length > 0 && (
        <section aria-labelledby="ended-title">
          <h2 id="ended-title">{`Ended (${ended.length})`}</h2>
          <ol className="rider-list rider-ended">
            {ended.map((s) => (
              <li key={s.order_id} id={`stop-${s.order_id}`}>
                <strong>{`${s.seq}. ${s.number}`}</strong> {s.address || s.place}
                <StopOutcome s={s} />
              </li>
            ))}
          </ol>
        </section>
      )}
    </>
  );
}
