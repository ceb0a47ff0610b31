// Save New Go-to Case on a cart case (issue 16, SPEC 2, 3, 8): guests are sent to log in and come
// back to the cart; members open the Go-to Case form in place (a `<details>`, so it opens without
// JavaScript too): add the case to one of their Go-to Cases of its type, or Create A New Case with
// a name. Without JavaScript the form posts to /cart and the browser goes to the Go-to Case; with
// it the call is sent from here and the form says what happened.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { calls, type CartCase } from '../api/contract.gen';
import { send } from '../api/send';
import { FormCall } from './form';
import { useHydrated, usePage } from '../page';
import { gotoCaseOptionsQuery } from '../features/goto-cases/queries';
import { canSubmit, compatible, failure, type Choice } from '../lib/goto-cases';

export function SaveGoToCase({ c, barangay }: { c: CartCase; barangay: number }) {
  const page = usePage();
  if (!page.member)
    return (
      <a className="button secondary" href="/login?from=cart">
        Save New Go-to Case
      </a>
    );
  return <GoToCaseForm c={c} barangay={barangay} />;
}

function GoToCaseForm({ c, barangay }: { c: CartCase; barangay: number }) {
  const page = usePage();
  const hydrated = useHydrated();
  const client = useQueryClient();
  const options = useQuery(gotoCaseOptionsQuery.options());
  const ids = c.items.map((i) => i.id).join(',');
  // A form of this case that came back without JavaScript: what was chosen and why it failed.
  const posted = page.form && page.form.values.cart_items === ids ? page.form : null;
  const postedChoice: Choice = posted ? (posted.values.case_id ? Number(posted.values.case_id) : 'new') : null;
  const [choice, setChoice] = useState<Choice>(postedChoice);
  const [name, setName] = useState(posted?.values.name ?? '');
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(posted ? { ok: false, text: posted.message } : null);
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);
  const choices = compatible(options.data?.cases ?? [], c.packaging_id);
  const canCreate = options.data?.can_create ?? true;
  const key = `goto-${c.packaging_id}`;
  const nameError = posted?.errors.name?.join(' ');
  return (
    <details className="goto-form" open={posted ? true : undefined}>
      <summary className="button secondary">Save New Go-to Case</summary>
      <form
        method="post"
        action="/cart"
        aria-labelledby={`${key}-legend`}
        onSubmit={async (e) => {
          e.preventDefault();
          if (inFlight.current || !canSubmit(choice, name)) return;
          inFlight.current = true;
          setBusy(true);
          setNote(null);
          const body = typeof choice === 'number' ? { case_id: choice, cart_items: c.items.map((i) => i.id), barangay } : { name, cart_items: c.items.map((i) => i.id), barangay };
          const sent = await send(calls.createGotoCase, { body });
          inFlight.current = false;
          setBusy(false);
          if (sent.ok) {
            setNote({ ok: true, text: sent.data.message });
            setName('');
            setChoice(null);
            await client.invalidateQueries({ queryKey: gotoCaseOptionsQuery.options().queryKey });
          } else {
            setNote({ ok: false, text: failure(sent.status, sent.message, choice, name, choices) });
          }
        }}
      >
        <FormCall call={calls.createGotoCase} />
        <input type="hidden" name="cart_items" value={ids} />
        <input type="hidden" name="barangay" value={barangay} />
        <fieldset>
          <legend id={`${key}-legend`}>Save your case “{c.name}” as a Go-to Case</legend>
          {choices.map((o) => (
            <label key={o.id} className="choice">
              <input type="radio" name="case_id" value={o.id} checked={choice === o.id} onChange={() => setChoice(o.id)} /> Add to “{o.case_name}” ({o.item_count}{' '}
              {o.item_count === 1 ? 'item' : 'items'})
            </label>
          ))}
          <label className="choice">
            <input type="radio" name="case_id" value="" checked={choice === 'new'} onChange={() => setChoice('new')} disabled={!canCreate} /> Create A New Case
          </label>
          <div className="field">
            <label htmlFor={`${key}-name`}>Name of the new Go-to Case</label>
            <input
              id={`${key}-name`}
              name="name"
              maxLength={60}
              value={name}
              disabled={!canCreate}
              onChange={(e) => setName(e.target.value)}
              onFocus={() => {
                if (choice === null) setChoice('new');
              }}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? `${key}-name-error` : undefined}
            />
            {nameError && (
              <p className="hint" id={`${key}-name-error`}>
                {nameError}
              </p>
            )}
          </div>
          {!canCreate && <p className="muted">You have {options.data?.max_cases} Go-to Cases, the most you can keep: add to one of them, or delete one first.</p>}
        </fieldset>
        <button type="submit" disabled={busy || (hydrated && !canSubmit(choice, name))} aria-busy={busy || undefined}>
          Save Go-to Case
        </button>
        {/* Both regions are always there, so a screen reader announces what fills them. */}
        <p className="form-message" role="status">
          {note?.ok && (
            <>
              {note.text} <a href="/my-account/go-to-cases">See My Go-to Cases</a>
            </>
          )}
        </p>
        <p className="form-message error" role="alert">
          {note && !note.ok && !nameError ? note.text : null}
        </p>
      </form>
    </details>
  );
}
