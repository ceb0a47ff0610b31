// A form that fills the cart from something the shopper bought or kept before: a Go-to
// Case's Add to Cart and an order's Order Again. It posts to /cart (the cart route's actions), so
// without JavaScript the browser lands on the cart, which names what could not be added; with it
// the same post answers where to go, or the reset question (a cart of the other family), which
// this form asks in place: Yes sends it again with `reset`.
import { useState, type ReactNode } from 'react';
import type { Call, Refilled } from '../api/contract.gen';
import { usePage } from '../page';
import { FormCall, useAccountForm } from './form';

export function RefillForm({
  call,
  fields,
  label,
  className,
}: {
  call: Call<Refilled>;
  /** The call's fields: its path's ids and the place. */
  fields: Record<string, string | number | null | undefined>;
  label: ReactNode;
  className?: string;
}) {
  const [state, submit, update] = useAccountForm();
  // The cart revision this page was made against: the server adds a refill once per revision,
  // so a double click, a retry or a second tab adds once.
  // A page rendered once for everyone (an order's page) leaves it as a slot each answer fills.
  const visitor = usePage().visitor;
  const revision = (visitor?.shared ? visitor.slots?.revision : visitor?.cart_revision) ?? 0;
  // The page's own posted form (another form's failure) is not this one's.
  const [mine, setMine] = useState(false);
  const question = mine ? state.errors.reset?.[0] : undefined;
  const failed = mine && !question ? state.message : null;
  return (
    <form
      method="post"
      action="/cart"
      className={className ?? 'inline-form'}
      onSubmit={(e) => {
        setMine(true);
        void submit(e);
      }}
    >
      <FormCall call={call} />
      {Object.entries(fields).map(([name, value]) =>
        value === null || value === undefined || value === '' ? null : <input key={name} type="hidden" name={name} value={value} />,
      )}
      <input type="hidden" name="revision" value={revision} />
      {question && <input type="hidden" name="reset" value="true" />}
      {question && (
        <p className="form-message error" role="alert">
          {question}
        </p>
      )}
      <button type="submit" disabled={state.busy} aria-busy={state.busy || undefined}>
        {question ? 'Yes, reset my cart' : label}
      </button>
      {question && (
        <button type="button" className="secondary" onClick={() => update({ errors: {}, message: null })}>
          No, keep my cart
        </button>
      )}
      {failed && (
        <p className="form-message error" role="alert">
          {failed}
        </p>
      )}
    </form>
  );
}
