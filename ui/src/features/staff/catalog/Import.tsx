import { useQuery } from '@tanstack/react-query';
import { calls, type DraftView } from '../../../api/contract.gen';
import { QueryState } from '../../../components/QueryState';
import { Csrf, FormCall, FormMessage, useAccountForm } from '../../../components/form';
import { usePage } from '../../../page';
import { CatalogChanges } from './CatalogChanges';
import { draftQuery } from '../queries';
import { StaffPage } from '../StaffPage';

/** Export, and the upload of a catalog file: checked at once, every problem listed by its record and field. */
export function Import() {
  const [state, submit] = useAccountForm();
  const problems = state.errors.file ?? [];
  return (
    <StaffPage current="/staff/catalog" id="staff-catalog-file" title="Catalog File">
      <p>
        The catalog file holds every product with its prices and cities, the deposits, the delivery fees, the banners and the promos, as <code>store catalog export</code> writes it.
      </p>
      <p>
        <a className="button secondary" href="/staff/catalog/export" download>
          Export the Catalog File
        </a>
      </p>
      <form method="post" action="/staff/catalog/import" encType="multipart/form-data" onSubmit={submit} aria-labelledby="import-title">
        <h2 id="import-title">Import a catalog file</h2>
        <p>Upload an edited file: the next page lists every change it would make, and nothing changes until you apply it.</p>
        <Csrf />
        <div className="field">
          <label htmlFor="catalog-file">Catalog file (JSON)</label>
          <input id="catalog-file" type="file" name="file" accept="application/json,.json" aria-invalid={problems.length > 0 || undefined} aria-describedby={problems.length > 0 ? 'catalog-file-problems' : undefined} />
        </div>
        {problems.length > 0 && (
          <div id="catalog-file-problems">
            <p className="hint">{`Nothing was changed. The file has ${problems.length === 1 ? 'a problem' : 'problems'}:`}</p>
            <ul className="problems">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </div>
        )}
        <FormMessage state={state} fields={['file']} />
        <button type="submit" disabled={state.busy}>
          {state.busy ? 'Checking…' : 'Check the File'}
        </button>
      </form>
    </StaffPage>
  );
}

function ApplyForm({ draft }: { draft: DraftView }) {
  const [state, submit] = useAccountForm();
  return (
    <form method="post" action={`/staff/catalog/import/${draft.id}`} onSubmit={submit}>
      <FormCall call={calls.staffDraftApply} />
      <input type="hidden" name="draftId" value={draft.id} />
      <FormMessage state={state} />
      <button type="submit" disabled={state.busy || draft.problems.length > 0 || draft.changes.length === 0}>
        {state.busy ? 'Applying…' : 'Apply These Changes'}
      </button>
    </form>
  );
}

/** An uploaded file's dry run: every change it would make, then Apply. */
export function CatalogDraft() {
  const draft = useQuery(draftQuery.options(usePage().vars));
  return (
    <StaffPage current="/staff/catalog" id="staff-catalog-draft" title="Check the Catalog File">
      <QueryState query={draft} loading="Checking the file…" error="We could not check the file. Upload it again." retry>
        {(d) => (
          <>
            <p>{`${d.file_name}, uploaded ${d.uploaded_at}.`}</p>
            {d.problems.length > 0 ? (
              <>
                <p className="hint">The store changed since this file was uploaded, and it no longer holds:</p>
                <ul className="problems">
                  {d.problems.map((p) => (
                    <li key={p}>{p}</li>
                  ))}
                </ul>
              </>
            ) : (
              <>
                <ul>
                  {d.summary.map((s) => (
                    <li key={s}>{s}</li>
                  ))}
                </ul>
                <CatalogChanges changes={d.changes} caption="What will change when you apply the file" />
              </>
            )}
            <ApplyForm draft={d} />
            <p>
              <a href="/staff/catalog/import">Upload another file</a> · <a href="/staff/catalog">Back to the catalog without applying</a>
            </p>
          </>
        )}
      </QueryState>
    </StaffPage>
  );
}
