import { calls } from '../../api/contract.gen';
import { usePageParam } from '../../page';
import { DoneMessage, FormCall, FormMessage, useAccountForm, useDone } from '../../components/form';

/**
 * /newsletter/confirm?token=…: the double opt-in's link. Opening it does not subscribe anyone (mail
 * scanners open links); the button does.
 */
export function ConfirmNewsletter() {
  const token = usePageParam('token') ?? '';
  const done = useDone({ confirmed: 'Your email has been added to our mailing list and will receive our latest news.' });
  const [state, submit] = useAccountForm();
  return (
    <section className="account-page" aria-labelledby="confirm-title">
      <h1 id="confirm-title">Newsletter</h1>
      {done ? (
        <>
          <DoneMessage text={done} />
          <a className="button" href="/buy-beer">
            Buy Beer
          </a>
        </>
      ) : (
        // Posted to the link's own address, so a form that comes back with a message keeps the link.
        <form method="post" action={`/newsletter/confirm?token=${encodeURIComponent(token)}`} onSubmit={submit}>
          <p>Confirm that you want to receive the news and promos of Tala Brewing Co. by email.</p>
          <FormCall call={calls.confirmSubscription} />
          <input type="hidden" name="token" value={token} />
          <FormMessage state={state} />
          <button type="submit" disabled={state.busy}>
            Confirm My Subscription
          </button>
        </form>
      )}
    </section>
  );
}
