import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { lazyPart, pathOf, usePage } from '../../page';
import { Dialog } from '../../components/Dialog';
import { gateQueries } from './queries';
import { Csrf } from '../../components/form';
import { useGate } from './state';

/**
 * The policy text and its AGREE AND PROCEED form: a form post without JS, `onAgree` with
 * it. The modal and /splash share it.
 */
export function Consent({ returnTo, onAgree, fallback }: { returnTo: string; onAgree: () => void; fallback: string }) {
  const { data } = useQuery(gateQueries.policy.options());
  return (
    <>
      <div className="policy-text" tabIndex={0} role="region" aria-label="Policy text">
        {(data?.body ?? fallback).split('\n\n').map((para, i) => (
          <p key={i}>{para}</p>
        ))}
      </div>
      <form
        method="post"
        action="/gate/consent"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          onAgree();
        }}
        className="dialog-actions"
      >
        <input type="hidden" name="return_to" value={returnTo} />
        {/* A member's acceptance is written to the account: their page carries the session's token. */}
        <Csrf />
        <button type="submit">AGREE AND PROCEED</button>
        {/* The button shows just "Learn More"; its name says where it goes (a crawler reads the link's text). */}
        <a className="button secondary" href="/terms-and-conditions">
          Learn More<span className="visually-hidden"> about our Terms and Conditions</span>
        </a>
      </form>
    </>
  );
}

function PolicyModal() {
  const page = usePage();
  const { agree } = useGate();
  return (
    <Dialog title="PRIVACY / COOKIE POLICY">
      <Consent
        returnTo={pathOf(page.url)}
        onAgree={agree}
        fallback="We use cookies to remember your choices. You must be 18 years old or older to order."
      />
    </Dialog>
  );
}

/**
 * The category and location gates (GateSteps.tsx): a chunk of their own, fetched when one opens.
 * A page whose server's HTML holds one (the server opened the gate) loads it before it hydrates;
 * a new visitor's first gate, the policy, is in the first load.
 */
const GateStepsPart = lazyPart(
  () => import('./GateSteps').then((m) => m.GateSteps),
  (input) => input.gate.open === 'category' || input.gate.open === 'location',
);

/** The entry gates, over the rendered page (crawlers still get the page's content). */
export function Gates() {
  const { gate } = useGate();
  if (gate.open === 'policy') return <PolicyModal />;
  if (gate.open === 'category' || gate.open === 'location') return <GateStepsPart open={gate.open} />;
  return null;
}
