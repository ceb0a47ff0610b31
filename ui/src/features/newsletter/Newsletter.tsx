import { useEffect, useState, type FormEvent } from 'react';
import { calls, type ErrorBody, type SubscribeAnswer, type ValidationErrorBody } from '../../api/contract.gen';
import { usePage, usePageParam } from '../../page';

const NEWSLETTER_OK = 'Thank you! Open the link we sent to your email to confirm your subscription.';
const NEWSLETTER_FAIL = 'Something went wrong adding your email address to the newsletter. Please try again.';
/** Messages of the no-JS newsletter form, named in the redirect's query. */
const NEWSLETTER_CODES: Record<string, string> = {
  sent: NEWSLETTER_OK,
  required: 'The email field is required.',
  invalid: 'The email must be a valid email address.',
  failed: NEWSLETTER_FAIL,
  limited: 'Too many attempts. Please try again in a few minutes.',
};

/** The footer's newsletter form: a real form post without JS, the JSON call with it. */
export function Newsletter() {
  const page = usePage();
  const code = usePageParam('newsletter');
  const [message, setMessage] = useState<{ text: string; ok: boolean } | null>(
    code && NEWSLETTER_CODES[code] ? { text: NEWSLETTER_CODES[code], ok: code === 'sent' } : null,
  );
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!message) return;
    const t = setTimeout(() => setMessage(null), 5000);
    return () => clearTimeout(t);
  }, [message]);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const email = String(new FormData(form).get('email') ?? '');
    setBusy(true);
    try {
      const res = await fetch(calls.subscribe.key, {
        method: calls.subscribe.method,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ email }),
      });
      const body = (await res.json().catch(() => null)) as Partial<SubscribeAnswer & ValidationErrorBody & ErrorBody> | null;
      if (res.ok) {
        setMessage({ text: body?.data?.success ?? NEWSLETTER_OK, ok: true });
        form.reset();
      } else {
        setMessage({ text: body?.errors?.email?.[0] ?? body?.error ?? NEWSLETTER_FAIL, ok: false });
      }
    } catch {
      setMessage({ text: NEWSLETTER_FAIL, ok: false });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form method="post" action="/newsletter" className="newsletter" onSubmit={submit} id="newsletter" noValidate>
      <input type="hidden" name="return_to" value={page.url.split(/[?#]/)[0]} />
      <label htmlFor="newsletter-email">Get our latest news and promos</label>
      <div className="newsletter-row">
        <input id="newsletter-email" type="email" name="email" placeholder="Email Address" autoComplete="email" />
        <button type="submit" disabled={busy}>
          Subscribe
        </button>
      </div>
      <p className={message?.ok === false ? 'form-message error' : 'form-message'} role="status">
        {message?.text ?? ''}
      </p>
    </form>
  );
}
