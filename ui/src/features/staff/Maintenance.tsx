import { useQuery } from '@tanstack/react-query';
import { calls, type MaintenanceState } from '../../api/contract.gen';
import { QueryState } from '../../components/QueryState';
import { DoneMessage, FormCall, FormMessage, useAccountForm, useDone } from '../../components/form';
import { maintenanceQuery } from './queries';
import { StaffPage } from './StaffPage';

const CLOSE_QUESTION = 'Close the store for maintenance? Shoppers see the maintenance page until you open it again.';

function Switch({ m }: { m: MaintenanceState }) {
  const [state, submit] = useAccountForm(m.on ? {} : { confirm: CLOSE_QUESTION });
  return (
    <form method="post" action="/staff/maintenance" onSubmit={submit} aria-labelledby="switch-title">
      <h2 id="switch-title">{m.on ? 'The store is closed for maintenance' : 'The store is open'}</h2>
      <p>
        {m.on
          ? 'Shoppers see the “We\'re Brewing Something For You” page instead of the shop, and nothing they send is taken. The back office stays open.'
          : 'Shoppers browse and order as usual. Closing the store shows them the “We\'re Brewing Something For You” page within a second, on every server of the store, until you open it again.'}
      </p>
      <FormCall call={calls.staffMaintenanceSet} />
      <input type="hidden" name="on" value={m.on ? 'false' : 'true'} />
      <FormMessage state={state} />
      <button type="submit" disabled={state.busy}>
        {m.on ? 'Open the Store Again' : 'Close the Store for Maintenance'}
      </button>
    </form>
  );
}

/** The maintenance switch for managers: every app server follows it within a second. */
export function Maintenance() {
  const m = useQuery(maintenanceQuery.options());
  const done = useDone({ true: 'Closed: shoppers see the maintenance page within a second.', false: 'Open: shoppers see the store again within a second.' });
  return (
    <StaffPage current="/staff/maintenance" id="staff-maintenance" title="Maintenance">
      <DoneMessage text={done} />
      <QueryState query={m} loading="Loading the switch…" error="We could not read the switch. Please reload the page." retry>
        {(s) => <Switch m={s} />}
      </QueryState>
    </StaffPage>
  );
}
