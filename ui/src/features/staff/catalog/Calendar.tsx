import { useQuery } from '@tanstack/react-query';
import { calls, type HolidayEdit, type NoticeEdit } from '../../../api/contract.gen';
import { QueryState } from '../../../components/QueryState';
import { DoneMessage, Field, type FormState, useDone } from '../../../components/form';
import { calendarQuery } from '../queries';
import { StaffForm, TextArea } from '../StaffForm';
import { StaffPage } from '../StaffPage';

/** The first and last day of a holiday or notice. */
function Days({ id, state, starts, ends }: { id: string; state: FormState; starts?: string; ends?: string }) {
  return (
    <>
      <Field id={`${id}-starts_on`} name="starts_on" label="First day" type="date" state={state} defaultValue={starts ?? ''} required />
      <Field id={`${id}-ends_on`} name="ends_on" label="Last day" type="date" state={state} defaultValue={ends ?? ''} required />
    </>
  );
}

/** A record's Remove button, a form of its own. */
function Remove({ id, call, recordId, version, label }: { id: string; call: typeof calls.staffHolidayRemove; recordId: number; version: string; label: string }) {
  return (
    <StaffForm id={`${id}-remove`} call={call} action="/staff/catalog/calendar" className="inline-form" confirm={`Remove ${label}?`}>
      {(state) => (
        <>
          <input type="hidden" name="id" value={String(recordId)} />
          <input type="hidden" name="version" value={version} />
          <button type="submit" disabled={state.busy} className="secondary">
            Remove<span className="visually-hidden">{` ${label}`}</span>
          </button>
        </>
      )}
    </StaffForm>
  );
}

function HolidayForm({ h }: { h?: HolidayEdit }) {
  const id = h ? `holiday-${h.id}` : 'holiday-new';
  const label = h ? `${h.name} (${h.starts_on})` : 'a new holiday';
  return (
    <div id={id} className="calendar-edit">
      <StaffForm id={id} call={calls.staffHolidaySave} action="/staff/catalog/calendar" fields={['name', 'starts_on', 'ends_on']}>
        {(state) => (
          <fieldset>
            <legend>{h ? h.name : 'Add a holiday'}</legend>
            {h && <input type="hidden" name="id" value={String(h.id)} />}
            {h && <input type="hidden" name="version" value={state.values.version ?? h.version} />}
            <Field id={`${id}-name`} name="name" label="Name" state={state} defaultValue={h?.name ?? ''} required />
            <Days id={id} state={state} starts={h?.starts_on} ends={h?.ends_on} />
            <button type="submit" disabled={state.busy}>
              {h ? 'Save Holiday' : 'Add Holiday'}
              {h && <span className="visually-hidden">{` ${label}`}</span>}
            </button>
          </fieldset>
        )}
      </StaffForm>
      {h && <Remove id={id} call={calls.staffHolidayRemove} recordId={h.id} version={h.version} label={label} />}
    </div>
  );
}

function NoticeForm({ n }: { n?: NoticeEdit }) {
  const id = n ? `notice-${n.id}` : 'notice-new';
  const label = n ? `${n.title} (${n.starts_on})` : 'a new notice';
  return (
    <div id={id} className="calendar-edit">
      <StaffForm id={id} call={calls.staffNoticeSave} action="/staff/catalog/calendar" fields={['title', 'body', 'starts_on', 'ends_on']}>
        {(state) => (
          <fieldset>
            <legend>{n ? n.title : 'Add a notice'}</legend>
            {n && <input type="hidden" name="id" value={String(n.id)} />}
            {n && <input type="hidden" name="version" value={state.values.version ?? n.version} />}
            <Field id={`${id}-title`} name="title" label="Title" state={state} defaultValue={n?.title ?? ''} required />
            <TextArea id={`${id}-body`} name="body" label="What the home page says" state={state} defaultValue={n?.body ?? ''} required />
            <Days id={id} state={state} starts={n?.starts_on} ends={n?.ends_on} />
            <button type="submit" disabled={state.busy}>
              {n ? 'Save Notice' : 'Add Notice'}
              {n && <span className="visually-hidden">{` ${label}`}</span>}
            </button>
          </fieldset>
        )}
      </StaffForm>
      {n && <Remove id={id} call={calls.staffNoticeRemove} recordId={n.id} version={n.version} label={label} />}
    </div>
  );
}

/** What is over, listed to read (no form). */
function Past({ what, items }: { what: string; items: { id: number; title: string; starts_on: string; ends_on: string }[] }) {
  if (items.length === 0) return null;
  return (
    <details>
      <summary>{`Past ${what} (${items.length})`}</summary>
      <ul>
        {items.map((i) => (
          <li key={i.id}>{`${i.title}: ${i.starts_on === i.ends_on ? i.starts_on : `${i.starts_on} to ${i.ends_on}`}`}</li>
        ))}
      </ul>
    </details>
  );
}

/** The holidays (no delivery or pickup city picker in the home page's notice on them) and the notices (the home page's notice in their days) for managers. */
export function Calendar() {
  const calendar = useQuery(calendarQuery.options());
  const done = useDone({
    holiday: 'Saved: the store counts it as a holiday within a second.',
    'holiday-removed': 'Removed: the store no longer counts it as a holiday within a second.',
    notice: 'Saved: the home page shows the notice in its days within a second.',
    'notice-removed': 'Removed: the home page no longer shows it within a second.',
  });
  return (
    <StaffPage current="/staff/catalog" id="staff-calendar" title="Holidays and Notices">
      <DoneMessage text={done} />
      <p>
        <a href="/staff/catalog">Back to the catalog</a>
      </p>
      <QueryState query={calendar} loading="Loading the holidays and notices…" error="We could not load the holidays and notices. Please reload the page." retry>
        {(c) => {
          const holidays = c.holidays.filter((h) => !h.past);
          const notices = c.notices.filter((n) => !n.past);
          return (
            <>
              <section id="holidays" aria-labelledby="holidays-title">
                <h2 id="holidays-title">Holidays</h2>
                <p>On a holiday the home page’s notice offers no delivery or pickup city to choose. Checkout’s own closed hours are not changed here.</p>
                {holidays.length === 0 ? <p>No holiday is coming.</p> : holidays.map((h) => <HolidayForm key={h.id} h={h} />)}
                <HolidayForm />
                <Past what="holidays" items={c.holidays.filter((h) => h.past).map((h) => ({ ...h, title: h.name }))} />
              </section>
              <section id="notices" aria-labelledby="notices-title">
                <h2 id="notices-title">Notices</h2>
                <p>The home page shows the notice whose days hold today (a liquor ban, a closed depot); when two overlap, the one that starts later.</p>
                {notices.length === 0 ? <p>No notice is coming.</p> : notices.map((n) => <NoticeForm key={n.id} n={n} />)}
                <NoticeForm />
                <Past what="notices" items={c.notices.filter((n) => n.past)} />
              </section>
            </>
          );
        }}
      </QueryState>
    </StaffPage>
  );
}
