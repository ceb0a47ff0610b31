import { useQuery } from '@tanstack/react-query';
import { calls, type BannerEdit } from '../../../api/contract.gen';
import { QueryState } from '../../../components/QueryState';
import { Photo } from '../../../components/Photo';
import { Csrf, DoneMessage, Field, FormMessage, useDone, usePageForm, useScopedForm, type FormState } from '../../../components/form';
import { PHOTO_ACCEPT, PHOTO_HINT, PhotoRemove, PhotoUpload, removeQuestion } from '../Photos';
import { bannersEditQuery } from '../queries';
import { FieldErrors, StaffForm } from '../StaffForm';
import { StaffPage } from '../StaffPage';

/** The banners page, where each banner's forms post. */
const BANNERS = '/staff/catalog/banners';

/** When a banner shows, in words. */
function span(b: BannerEdit): string {
  if (!b.starts_on && !b.ends_on) return 'Every day';
  if (!b.ends_on) return `From ${b.starts_on}`;
  if (!b.starts_on) return `Until ${b.ends_on}`;
  return `${b.starts_on} to ${b.ends_on}`;
}

/** A banner's words, days and place: its own (`b`), or empty for a new one. */
function BannerFields({ id, state, b }: { id: string; state: FormState; b?: BannerEdit }) {
  return (
    <>
      <Field id={`${id}-title`} name="title" label="Title" state={state} defaultValue={b?.title ?? ''} />
      <Field id={`${id}-starts_on`} name="starts_on" label="First day shown" type="date" state={state} defaultValue={b?.starts_on ?? ''} hint="Empty: shown already." />
      <Field id={`${id}-ends_on`} name="ends_on" label="Last day shown" type="date" state={state} defaultValue={b?.ends_on ?? ''} hint="Empty: shown for good." />
      <Field id={`${id}-sort_order`} name="sort_order" label="Place in the carousel" type="number" state={state} defaultValue={b ? String(b.sort_order) : ''} hint={b ? 'Lower comes first.' : 'Lower comes first. Empty: after the others.'} />
    </>
  );
}

/** The banner's photo, shown on every screen in place of its images; taken away, the images show again. */
function BannerPhoto({ b }: { b: BannerEdit }) {
  const upload = `${b.anchor}-photo`;
  const remove = `${b.anchor}-remove`;
  const [uploadState, uploadSubmit] = useScopedForm(upload);
  const [removeState, removeSubmit] = useScopedForm(remove, { confirm: removeQuestion(b.title, 'Its images show') });
  const key = { bannerId: String(b.id) };
  return (
    <div className="banner-photo-forms">
      <p>{b.photo ? `Photo, ${b.photo.width} x ${b.photo.height} px, on every screen.` : 'No photo: the images above show. A photo takes their place on every screen (a wide one, about 3 to 1, suits it best).'}</p>
      <PhotoUpload action={BANNERS} id={`${upload}-file`} name={b.title} hidden={{ ...key, form: upload }} state={uploadState} submit={uploadSubmit} />
      {b.photo && <PhotoRemove action={BANNERS} name={b.title} hidden={{ ...key, form: remove }} state={removeState} submit={removeSubmit} />}
    </div>
  );
}

function BannerForm({ b }: { b: BannerEdit }) {
  const id = b.anchor;
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="banner-edit">
      <h2 id={`${id}-heading`}>{b.title}</h2>
      <p>
        {b.photo ? (
          <Photo photo={b.photo} alt="" sizes="300px" className="banner-thumb" />
        ) : b.desktop_image ? (
          <img src={b.desktop_image} alt="" width={300} height={100} loading="lazy" className="banner-thumb" />
        ) : (
          'No image'
        )}
      </p>
      <p>{`${span(b)} · ${b.shown_today ? 'Shown today' : 'Not shown today'}`}</p>
      <StaffForm id={id} call={calls.staffBannerSave} action={BANNERS} fields={['title', 'starts_on', 'ends_on', 'sort_order']}>
        {(state) => (
          <>
            <input type="hidden" name="bannerId" value={String(b.id)} />
            <input type="hidden" name="whole" value="true" />
            <input type="hidden" name="version" value={state.values.version ?? b.version} />
            <BannerFields id={id} state={state} b={b} />
            <button type="submit" disabled={state.busy}>
              Save Banner<span className="visually-hidden">{` ${b.title}`}</span>
            </button>
          </>
        )}
      </StaffForm>
      <BannerPhoto b={b} />
    </section>
  );
}

/** The form that adds a banner: its words, days and place, with its photo (a banner is never without one). */
function AddBanner() {
  const id = 'banner-add';
  const [state, submit] = useScopedForm(id);
  const photoError = `${id}-photo-error`;
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="banner-edit">
      <h2 id={`${id}-heading`}>Add a Banner</h2>
      <p>Give it a first day ahead to schedule it; the home page shows it from that day, with its photo on every screen.</p>
      {/* Without JavaScript the page comes back at this form when it is refused. */}
      <form method="post" action={`${BANNERS}#${id}`} encType="multipart/form-data" onSubmit={submit} noValidate>
        <Csrf />
        <input type="hidden" name="add" value="true" />
        <input type="hidden" name="form" value={id} />
        <BannerFields id={id} state={state} />
        <div className="field">
          <label htmlFor={`${id}-photo`}>Photo</label>
          <input id={`${id}-photo`} type="file" name="photo" accept={PHOTO_ACCEPT} aria-describedby={state.errors.photo ? `${id}-photo-hint ${photoError}` : `${id}-photo-hint`} aria-invalid={state.errors.photo ? true : undefined} />
          <span id={`${id}-photo-hint`} className="muted">
            {`${PHOTO_HINT} A wide one, about 3 to 1, suits the carousel best.`}
          </span>
          <FieldErrors state={state} name="photo" id={photoError} />
        </div>
        <FormMessage state={state} fields={['title', 'starts_on', 'ends_on', 'sort_order', 'photo']} />
        <button type="submit" disabled={state.busy}>
          {state.busy ? 'Adding…' : 'Add Banner'}
        </button>
      </form>
    </section>
  );
}

/** The home page's banners for managers: each one's title, place and the days it shows. */
export function Banners() {
  const banners = useQuery(bannersEditQuery.options());
  // A photo form's body the server could not read (too large, not a form) comes back naming no
  // form: said at the top of the page.
  const unread = usePageForm((v) => v.form === undefined);
  const done = useDone({
    saved: 'Saved: the home page shows it within a second, on its days.',
    photo: 'The photo is saved: the home page shows it within a second.',
    added: 'Added: the home page shows it within a second, on its days.',
    removed: 'The photo is taken away: the home page shows the images again.',
  });
  return (
    <StaffPage current="/staff/catalog" id="staff-banners" title="Banners">
      <DoneMessage text={done} />
      {unread && <FormMessage state={{ ...unread, ok: false }} />}
      <p>
        <a href="/staff/catalog">Back to the catalog</a> · <a href="#banner-add">Add a banner</a> · Many at once come with the catalog file (<a href="/staff/catalog/import">Export or import the catalog file</a>).
      </p>
      <QueryState query={banners} loading="Loading the banners…" error="We could not load the banners. Please reload the page." retry>
        {(list) => (list.results.length === 0 ? <p>There are no banners.</p> : list.results.map((b) => <BannerForm key={b.id} b={b} />))}
      </QueryState>
      <AddBanner />
    </StaffPage>
  );
}
