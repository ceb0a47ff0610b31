import { useQuery } from '@tanstack/react-query';
import { calls, type BannerEdit } from '../../api/contract.gen';
import { QueryState } from '../../components/QueryState';
import { DoneMessage, useDone } from '../../components/form';
import { bannersEditQuery } from './queries';
import { FieldErrors, StaffForm } from './StaffForm';
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
        {(state) => {
          const value = (name: string, fallback: string) => state.values[name] ?? fallback;
          const field = (name: string, label: string, type: string, fallback: string, hint?: string) => {
            const input = `${id}-${name}`;
            const described = [hint ? `${input}-hint` : null, state.errors[name] ? `${input}-error` : null].filter(Boolean).join(' ');
            return (
              <div className="field">
                <label htmlFor={input}>{label}</label>
                {hint && (
                  <p className="field-hint" id={`${input}-hint`}>
                    {hint}
                  </p>
                )}
                <input id={input} name={name} type={type} defaultValue={value(name, fallback)} aria-invalid={state.errors[name] ? true : undefined} aria-describedby={described || undefined} />
                <FieldErrors state={state} name={name} id={`${input}-error`} />
              </div>
            );
          };
          return (
            <>
              <input type="hidden" name="bannerId" value={String(b.id)} />
              <input type="hidden" name="whole" value="true" />
              {field('title', 'Title', 'text', b.title)}
              {field('starts_on', 'First day shown', 'date', b.starts_on ?? '', 'Empty: shown already.')}
              {field('ends_on', 'Last day shown', 'date', b.ends_on ?? '', 'Empty: shown for good.')}
              {field('sort_order', 'Place in the carousel', 'number', String(b.sort_order), 'Lower comes first.')}
              <button type="submit" disabled={state.busy}>
                Save Banner<span className="visually-hidden">{` ${b.title}`}</span>
              </button>
            </>
          );
        }}
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
