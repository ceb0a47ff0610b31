import { useQuery } from '@tanstack/react-query';
import { calls, type DepositEdit, type FeeEdit } from '../../../api/contract.gen';
import { QueryState } from '../../../components/QueryState';
import { DoneMessage, Field, useDone } from '../../../components/form';
import { formatPhp } from '../../../lib/money';
import { chargesQuery } from '../queries';
import { StaffForm } from '../StaffForm';
import { StaffPage } from '../StaffPage';

function DepositForm({ d }: { d: DepositEdit }) {
  const id = `deposit-${d.id}`;
  return (
    <section id={id} aria-labelledby={`${id}-heading ${id}-on`} className="charge-edit">
      <h3 id={`${id}-heading`}>{d.name}</h3>
      <p id={`${id}-on`}>{`Charged on: ${d.charged_on}`}</p>
      <StaffForm id={id} call={calls.staffDepositSave} action="/staff/catalog/charges" fields={['name', 'amount']}>
        {(state) => (
          <>
            <input type="hidden" name="depositId" value={String(d.id)} />
            <input type="hidden" name="version" value={state.values.version ?? d.version} />
            <Field id={`${id}-name`} name="name" label="Name" state={state} defaultValue={d.name} required />
            <Field id={`${id}-amount`} name="amount" label="Amount a case (pesos)" state={state} defaultValue={formatPhp(d.amount)} inputMode="decimal" required />
            <button type="submit" disabled={state.busy}>
              Save Deposit<span className="visually-hidden">{` ${d.name} on ${d.charged_on}`}</span>
            </button>
          </>
        )}
      </StaffForm>
    </section>
  );
}

function FeeForm({ f }: { f: FeeEdit }) {
  const id = `fee-${f.city_id}-${f.fulfillment_id}`;
  const what = `${f.fulfillment} fee in ${f.city_name}`;
  return (
    <StaffForm id={id} call={calls.staffFeeSave} action="/staff/catalog/charges" fields={['amount']} className="fee-edit">
      {(state) => (
        <>
          <input type="hidden" name="cityId" value={String(f.city_id)} />
          <input type="hidden" name="fulfillmentId" value={String(f.fulfillment_id)} />
          <input type="hidden" name="version" value={state.values.version ?? f.version} />
          <Field
            id={id}
            name="amount"
            label={`${f.fulfillment} (pesos)`}
            state={state}
            defaultValue={f.amount === null ? '' : formatPhp(f.amount)}
            inputMode="decimal"
            hint={f.amount === null ? `No fee set: ${f.fulfillment.toLowerCase()} in ${f.city_name} is free.` : undefined}
            required
          />
          <button type="submit" disabled={state.busy}>
            Save Fee<span className="visually-hidden">{`: ${what}`}</span>
          </button>
        </>
      )}
    </StaffForm>
  );
}

function Fees({ fees }: { fees: FeeEdit[] }) {
  const cities = [...new Map(fees.map((f) => [f.city_id, f])).values()];
  const provinces = [...new Set(cities.map((c) => c.province))];
  return (
    <>
      {provinces.map((p) => (
        <section key={p} aria-label={p}>
          <h3>{p}</h3>
          {cities
            .filter((c) => c.province === p)
            .map((c) => (
              <fieldset key={c.city_id} id={`fees-${c.city_id}`} className="city-fees">
                <legend>{c.city_name}</legend>
                {fees
                  .filter((f) => f.city_id === c.city_id)
                  .map((f) => (
                    <FeeForm key={f.fulfillment_id} f={f} />
                  ))}
              </fieldset>
            ))}
        </section>
      ))}
    </>
  );
}

/** Deposits and each served city's delivery fees for managers, checked as the catalog import checks them. */
export function Charges() {
  const charges = useQuery(chargesQuery.options());
  const done = useDone({ saved: 'Saved: every cart and checkout charges it within a second.' });
  return (
    <StaffPage current="/staff/catalog" id="staff-charges" title="Deposits and Delivery Fees">
      <DoneMessage text={done} />
      <p>
        <a href="/staff/catalog">Back to the catalog</a> · New deposits come with the catalog file (<a href="/staff/catalog/import">Export or import the catalog file</a>).
      </p>
      <QueryState query={charges} loading="Loading the deposits and fees…" error="We could not load the deposits and fees. Please reload the page." retry>
        {(c) => (
          <>
            <section aria-labelledby="deposits-title">
              <h2 id="deposits-title">Deposits</h2>
              {c.deposits.length === 0 ? <p>There are no deposits.</p> : c.deposits.map((d) => <DepositForm key={d.id} d={d} />)}
            </section>
            <section aria-labelledby="fees-title">
              <h2 id="fees-title">Delivery fees</h2>
              <p>Each served city’s fee for delivery and for pickup, added to an order there.</p>
              {c.fees.length === 0 ? <p>The store serves no city yet.</p> : <Fees fees={c.fees} />}
            </section>
          </>
        )}
      </QueryState>
    </StaffPage>
  );
}
