import { useQuery } from '@tanstack/react-query';
import { calls, type BannerEdit } from '../../api/contract.gen';
import { QueryState } from '../../components/QueryState';
import { DoneMessage, Field, useDone } from '../../components/form';
import { bannersEditQuery } from './queries';
import { StaffForm } from './StaffForm';
import { StaffPage } from './StaffPage';

/** When a banner shows, in words. */
function span(b: BannerEdit): string {
  if (!b.starts_on && !b.ends_on) return 'Every day';
  if (!b.ends_on) return `From ${b.starts_on}`;
  if (!b.starts_on) return `Until ${b.ends_on}`;
  return `${b.starts_on} to ${b.ends_on}`;
}

function BannerForm({ b }: { b: BannerEdit }) {
  const id = `banner-${b.id}`;
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="banner-edit">
      <h2 id={`${id}-heading`}>{b.title}</h2>
      <p>
        <img src={b.desktop_image} alt="" width={300} height={100} loading="lazy" className="banner-thumb" />
      </p>
      <p>{`${span(b)} · ${b.shown_today ? 'Shown today' : 'Not shown today'}`}</p>
      <StaffForm id={id} call={calls.staffBannerSave} action="/staff/catalog/banners" fields={['title', 'starts_on', 'ends_on', 'sort_order']}>
        {(state) => (
          <>
            <input type="hidden" name="bannerId" value={String(b.id)} />
            <input type="hidden" name="whole" value="true" />
            <input type="hidden" name="version" value={state.values.version ?? b.version} />
            <Field id={`${id}-title`} name="title" label="Title" state={state} defaultValue={b.title} />
            <Field id={`${id}-starts_on`} name="starts_on" label="First day shown" type="date" state={state} defaultValue={b.starts_on ?? ''} hint="Empty: shown already." />
            <Field id={`${id}-ends_on`} name="ends_on" label="Last day shown" type="date" state={state} defaultValue={b.ends_on ?? ''} hint="Empty: shown for good." />
            <Field id={`${id}-sort_order`} name="sort_order" label="Place in the carousel" type="number" state={state} defaultValue={String(b.sort_order)} hint="Lower comes first." />
            <button type="submit" disabled={state.busy}>
              Save Banner<span className="visually-hidden">{` ${b.title}`}</span>
            </button>
          </>
        )}
      </StaffForm>
    </section>
  );
}

/** The home page's banners for managers: each one's title, place and the days it shows. */
export function Banners() {
  const banners = useQuery(bannersEditQuery.options());
  const done = useDone({ saved: 'Saved: the home page shows it within a second, on its days.' });
  return (
    <StaffPage current="/staff/catalog" id="staff-banners" title="Banners">
      <DoneMessage text={done} />
      <p>
        <a href="/staff/catalog">Back to the catalog</a> · New banners come with the catalog file (<a href="/staff/catalog/import">Export or import the catalog file</a>).
      </p>
      <QueryState query={banners} loading="Loading the banners…" error="We could not load the banners. Please reload the page." retry>
        {(list) => (list.results.length === 0 ? <p>There are no banners.</p> : list.results.map((b) => <BannerForm key={b.id} b={b} />))}
      </QueryState>
    </StaffPage>
  );
}
