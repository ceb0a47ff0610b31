import { useQuery } from '@tanstack/react-query';
import { calls, type PromoEdit } from '../../../api/contract.gen';
import { QueryState } from '../../../components/QueryState';
import { DoneMessage, Field, useDone } from '../../../components/form';
import { promosEditQuery } from '../queries';
import { StaffForm, TextArea } from '../StaffForm';
import { StaffPage } from '../StaffPage';

function PromoForm({ p }: { p: PromoEdit }) {
  const id = `promo-${p.id}`;
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="promo-edit">
      <h2 id={`${id}-heading`}>{`${p.title} · ${p.product_name}`}</h2>
      <p>
        {`${p.starts_on} to ${p.ends_on} · ${p.shown_today ? 'Shown today' : 'Not shown today'} · `}
        <a href={`/single-product/${encodeURIComponent(p.product_slug)}`}>
          Its product’s page<span className="visually-hidden">{`: ${p.product_name}`}</span>
        </a>
      </p>
      <StaffForm id={id} call={calls.staffPromoSave} action="/staff/catalog/promos" fields={['title', 'description', 'starts_on', 'ends_on']}>
        {(state) => (
          <>
            <input type="hidden" name="promoId" value={String(p.id)} />
            <input type="hidden" name="version" value={state.values.version ?? p.version} />
            <Field id={`${id}-title`} name="title" label="Title" state={state} defaultValue={p.title} required />
            <TextArea id={`${id}-description`} name="description" label="What its product’s page says" state={state} defaultValue={p.description} />
            <Field id={`${id}-starts_on`} name="starts_on" label="First day shown" type="date" state={state} defaultValue={p.starts_on} required />
            <Field id={`${id}-ends_on`} name="ends_on" label="Last day shown" type="date" state={state} defaultValue={p.ends_on} required />
            <button type="submit" disabled={state.busy}>
              Save Promo<span className="visually-hidden">{` ${p.title}`}</span>
            </button>
          </>
        )}
      </StaffForm>
    </section>
  );
}

/** The promos for managers: each one's title, words and the days its product's page shows it. */
export function Promos() {
  const promos = useQuery(promosEditQuery.options());
  const done = useDone({ saved: 'Saved: its product’s page shows it within a second, on its days.' });
  return (
    <StaffPage current="/staff/catalog" id="staff-promos" title="Promos">
      <DoneMessage text={done} />
      <p>
        <a href="/staff/catalog">Back to the catalog</a> · New promos come with the catalog file (<a href="/staff/catalog/import">Export or import the catalog file</a>).
      </p>
      <QueryState query={promos} loading="Loading the promos…" error="We could not load the promos. Please reload the page." retry>
        {(list) => (list.results.length === 0 ? <p>There are no promos.</p> : list.results.map((p) => <PromoForm key={p.id} p={p} />))}
      </QueryState>
    </StaffPage>
  );
}
