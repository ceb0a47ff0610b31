import { useQuery } from '@tanstack/react-query';
import { calls, type CitiesPlan as Plan } from '../../../api/contract.gen';
import { QueryState } from '../../../components/QueryState';
import { FormCall, FormMessage, useAccountForm } from '../../../components/form';
import { usePage } from '../../../page';
import { CatalogChanges } from './CatalogChanges';
import { citiesPlanQuery } from '../queries';
import { StaffPage } from '../StaffPage';

function SaveForm({ plan }: { plan: Plan }) {
  const [state, submit] = useAccountForm();
  return (
    <form method="post" action="/staff/catalog/cities" onSubmit={submit}>
      <FormCall call={calls.staffCitiesSave} />
      <input type="hidden" name="products" value={plan.products.map((p) => p.id).join(',')} />
      <input type="hidden" name="cities" value={plan.cities.map((c) => c.id).join(',')} />
      <input type="hidden" name="how" value={plan.how} />
      <input type="hidden" name="confirm" value="true" />
      <FormMessage state={state} />
      <button type="submit" disabled={state.busy || plan.changes.length === 0}>
        {state.busy ? 'Saving…' : 'Save These Changes'}
      </button>
    </form>
  );
}

/** What selling products in more cities, or fewer, changes, before it is saved. */
export function Cities() {
  const plan = useQuery(citiesPlanQuery.options(usePage().vars));
  return (
    <StaffPage current="/staff/catalog" id="staff-cities" title="Cities of Products">
      <QueryState query={plan} loading="Working out the changes…" error="We could not work out the changes. Go back to the catalog and tick products and cities again." retry>
        {(p) => (
          <>
            <p>{`${p.how === 'add' ? 'Sell' : 'Stop selling'} ${p.products.map((x) => x.product_name).join(', ')} in ${p.cities.map((c) => c.name).join(', ')}.`}</p>
            <CatalogChanges changes={p.changes} caption="What will change when you save" />
            <SaveForm plan={p} />
            <p>
              <a href="/staff/catalog">Back to the catalog without saving</a>
            </p>
          </>
        )}
      </QueryState>
    </StaffPage>
  );
}
