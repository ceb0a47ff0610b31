// Save New Go-to Case on a cart case: guests are sent to log in and come
// back to the cart; members open the Go-to Case form in place (a `<details>`, so it opens without
// JavaScript too): add the case to one of their Go-to Cases of its type, or Create A New Case with
// a name. Without JavaScript the form posts to /cart and the browser goes to the Go-to Case; with
// it the call is sent from here and the form says what happened.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { calls, GOTO_CASE_MAX_NAME, GOTO_CASES_FULL, type CartCase } from '../../api/contract.gen';
import { send } from '../../api/send';
import { requestKey } from '../../api/request-key';
import { FormCall } from '../../components/form';
import { useHydrated, usePage } from '../../page';
import { gotoCaseOptionsQuery } from './queries';
import { canSubmit, compatible, failure, type Choice } from './rules';

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

/**
 * The form's state: the choice (a Go-to Case's id, `new` or none yet), the new case's name, what
 * the last send said, and the send itself; a form of this case that came back without JavaScript
 * starts from what was posted and why it failed.
 */
function useGoToCaseForm(c: CartCase, barangay: number) {
  const page = usePage();
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
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (inFlight.current || !canSubmit(choice, name)) return;
    inFlight.current = true;
    setBusy(true);
    setNote(null);
    const target = typeof choice === 'number' ? { case_id: choice } : { name };
    // Its own key: sent again on a failing link, the case is saved once.
    const body = { ...target, cart_items: c.items.map((i) => i.id), barangay, request_key: requestKey() };
    const sent = await send(calls.createGotoCase, { body, retry: { label: 'Save a Go-to Case', kind: 'goto-cases' } });
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
  };
  return {
    ids,
    posted,
    choice,
    setChoice,
    name,
    setName,
    note,
    busy,
    choices,
    canCreate: options.data?.can_create ?? true,
    nameError: posted?.errors.name?.join(' '),
    submit,
  };
}

type GoToCaseFormState = ReturnType<typeof useGoToCaseForm>;

/** The choices: one of the member's Go-to Cases of the case's type, or a new one with its name. */
function GoToCaseChoices({ c, id, form }: { c: CartCase; id: string; form: GoToCaseFormState }) {
  const { choice, setChoice, name, setName, choices, canCreate, nameError } = form;
  return (
    <fieldset>
      <legend id={`${id}-legend`}>Save your case “{c.name}” as a Go-to Case</legend>
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
        <label htmlFor={`${id}-name`}>Name of the new Go-to Case</label>
        <input
          id={`${id}-name`}
          name="name"
          maxLength={GOTO_CASE_MAX_NAME}
          value={name}
          disabled={!canCreate}
          onChange={(e) => setName(e.target.value)}
          onFocus={() => {
            if (choice === null) setChoice('new');
          }}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? `${id}-name-error` : undefined}
        />
        {nameError && (
          <p className="hint" id={`${id}-name-error`}>
            {nameError}
          </p>
        )}
      </div>
      {!canCreate && <p className="muted">{GOTO_CASES_FULL}</p>}
    </fieldset>
  );
}

function GoToCaseForm({ c, barangay }: { c: CartCase; barangay: number }) {
  const hydrated = useHydrated();
  const form = useGoToCaseForm(c, barangay);
  const { note, busy, nameError } = form;
  const key = `goto-${c.packaging_id}`;
  return (
    <details className="goto-form" open={form.posted ? true : undefined}>
      <summary className="button secondary">Save New Go-to Case</summary>
      <form method="post" action="/cart" aria-labelledby={`${key}-legend`} onSubmit={form.submit}>
        <FormCall call={calls.createGotoCase} />
        <input type="hidden" name="cart_items" value={form.ids} />
        <input type="hidden" name="barangay" value={barangay} />
        <GoToCaseChoices c={c} id={key} form={form} />
        <button type="submit" disabled={busy || (hydrated && !canSubmit(form.choice, form.name))} aria-busy={busy || undefined}>
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
