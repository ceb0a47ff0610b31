import { Consent } from './Gates';
import { useGate } from './state';

/** /splash: the entry gate as a page of its own: the policy, the age statement, and on to home. */
export function Splash() {
  const { agree } = useGate();
  return (
    <section className="dialog static splash" aria-labelledby="splash-title">
      <h1 id="splash-title">PRIVACY / COOKIE POLICY</h1>
      <p>
        <strong>You must be 18 years old or older to enter this store.</strong>
      </p>
      <Consent
        returnTo="/"
        onAgree={() => {
          agree();
          window.location.assign('/');
        }}
        fallback="We use cookies to remember your choices."
      />
    </section>
  );
}
