import { useEffect, useRef, useSyncExternalStore } from 'react';
import { current, subscribe, type Delivery } from '../api/outbox';
import { dismissRefused, giveUp, sendNow, useRefused, useWaiting, type Refused, type Waiting } from '../api/waiting';
import { useHydrated } from '../page';

const SENDING = 'Sending… The connection is slow or lost; your change is sent again until the store answers.';
const NOT_SENT = 'Not sent — the store could not be reached. Your change is kept on this page.';
const WAITING = 'Waiting to be sent:';
const WAITING_HOW = 'Kept on this phone and sent when the connection is back, from whichever page is open.';
const REFUSED = 'Not done:';
const WHERE = 'The buttons are at the end of the page.';

/**
 * What happens to a change sent on a failing link: the writes waiting to be sent (`api/waiting.ts`:
 * kept on the device, sent from any page when the link is back), each with Give up, and Send now;
 * the changes the store refused when they finally arrived, with the store's own words; and Submit
 * Order on a failing link (`api/outbox.ts`: "Sending…", then "Not sent" with Retry). Screen readers
 * hear it from a live region that is always there (empty otherwise, and on the server: nothing is
 * sent before the page runs), told where the buttons are; it is seen in a popover, which the
 * browser shows above everything, wherever the page is scrolled, with no stylesheet of ours (the
 * inlined one has no byte to spare: every byte delays <main> in the first round trip).
 */
export function SendingBar() {
  const hydrated = useHydrated();
  const delivery = useSyncExternalStore(subscribe, current, () => null);
  const allWaiting = useWaiting();
  const allRefused = useRefused();
  // After hydration only: the writes a page before left are brought back as the page starts.
  const waiting = hydrated ? allWaiting : [];
  const refused = hydrated ? allRefused : [];
  const shown = useRef<HTMLDivElement>(null);
  const any = delivery !== null || waiting.length > 0 || refused.length > 0;
  useEffect(() => {
    const el = shown.current;
    if (!el || typeof el.showPopover !== 'function') return;
    if (any && !el.matches(':popover-open')) el.showPopover();
    if (!any && el.matches(':popover-open')) el.hidePopover();
  }, [any]);
  const words = [
    refused.map((r) => `${REFUSED} ${r.label}. ${r.message}`).join(' '),
    waiting.length > 0 ? `${WAITING} ${waiting.map((w) => w.label).join('; ')}. ${WAITING_HOW}` : '',
    delivery?.state === 'sending' ? SENDING : delivery?.state === 'failed' ? NOT_SENT : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <>
      <div role="status" className="visually-hidden">
        {words && `${words} ${WHERE}`}
      </div>
      <div popover="manual" ref={shown} className="offline-bar" data-sending={delivery?.state} data-waiting={waiting.length || undefined}>
        {refused.map((r) => (
          <RefusedLine key={r.id} refused={r} />
        ))}
        {waiting.length > 0 && <WaitingLines waiting={waiting} />}
        {delivery && <Shown delivery={delivery} />}
      </div>
    </>
  );
}

function RefusedLine({ refused }: { refused: Refused }) {
  return (
    <p>
      <span aria-hidden="true">
        {REFUSED} {refused.label}. {refused.message}
      </span>{' '}
      <button type="button" className="button secondary" onClick={() => dismissRefused(refused.id)}>
        Close
      </button>
    </p>
  );
}

function WaitingLines({ waiting }: { waiting: Waiting[] }) {
  return (
    <div>
      {WAITING}
      <ul>
        {waiting.map((w) => (
          <li key={w.id}>
            {w.label}{' '}
            <button type="button" className="button secondary" aria-label={`Give up: ${w.label}`} onClick={() => giveUp(w.id)}>
              Give up
            </button>
          </li>
        ))}
      </ul>
      {WAITING_HOW}{' '}
      <button type="button" className="button" onClick={sendNow}>
        Send now
      </button>
    </div>
  );
}

function Shown({ delivery }: { delivery: Delivery }) {
  const waiting = delivery.state === 'failed';
  return (
    <p>
      <span aria-hidden="true">{waiting ? NOT_SENT : SENDING}</span>{' '}
      <button type="button" className="button" aria-disabled={!waiting} onClick={waiting ? delivery.retry : undefined}>
        Retry
      </button>{' '}
      <button type="button" className="button secondary" onClick={delivery.giveUp}>
        Give up
      </button>
    </p>
  );
}
