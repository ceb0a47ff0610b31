import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { gateQueries } from './queries';
import { useGate } from './state';

/** /splash (SPEC 2): the entry gate as a page of its own: the policy, the age statement, and on to home. */
export function Splash() {
  const { agree } = useGate();
  const { data } = useQuery(gateQueries.policy.options());
  const submit = (e: FormEvent) => {
    e.preventDefault();
    agree();
    window.location.assign('/');
  };
  return (
    <section className="dialog static splash" aria-labelledby="splash-title">
      <h1 id="splash-title">PRIVACY / COOKIE POLICY</h1>
      <p>
        <strong>You must be 18 years old or older to enter this store.</strong>
      </p>
      <div className="policy-text" tabIndex={0} role="region" aria-label="Policy text">
        {(data?.body ?? 'We use cookies to remember your choices.').split('\n\n').map((para, i) => (
          <p key={i}>{para}</p>
        ))}
      </div>
      <form method="post" action="/gate/consent" onSubmit={submit} className="dialog-actions">
        <input type="hidden" name="return_to" value="/" />
        <button type="submit">AGREE AND PROCEED</button>
        <a className="button secondary" href="/terms-and-conditions">
          Learn More
        </a>
      </form>
    </section>
  );
}
