import { useEffect, useRef } from 'react';
import { dismissTold, giveUp, sendNow, shownNow, useTold, useWaiting, type Told, type Waiting } from '../api/waiting';
import { useHydrated } from '../page';

const WAITING = 'Waiting to be sent:';
const WAITING_HOW = 'Kept on this phone and sent when the connection is back, from whichever page is open.';
const REFUSED = 'Not done:';
const DONE = 'Done:';
const SEE = 'See it';
const WHERE = 'The buttons are at the end of the page.';

/**
 * What happens to a change sent on a failing link (`api/waiting.ts`: kept on the device, sent from
 * any page when the link is back): the writes waiting to be sent, each with Give up, and Send now;
 * and what became of those that arrived after their page had gone: refused, in the store's own
 * words, or done with a link to what they made (an order placed). Screen readers hear it from a
 * live region that is always there (empty otherwise, and on the server: nothing is sent before the
 * page runs), told where the buttons are; it is seen in a popover, which the browser shows above
 * everything, wherever the page is scrolled, with no stylesheet of ours (the inlined one has no byte
 * to spare: every byte delays <main> in the first round trip).
 */
export function SendingBar() {
  const hydrated = useHydrated();
  const allWaiting = useWaiting();
  const allTold = useTold();
  // After hydration only: the writes a page before left are brought back as the page starts.
  const waiting = hydrated ? allWaiting : [];
  const told = hydrated ? allTold : [];
  const shown = useRef<HTMLDivElement>(null);
  const any = waiting.length > 0 || told.length > 0;
  // The writes a page before left are sent once this bar can show them.
  useEffect(() => {
    if (hydrated) shownNow();
  }, [hydrated]);
  useEffect(() => {
    const el = shown.current;
    if (!el || typeof el.showPopover !== 'function') return;
    if (any && !el.matches(':popover-open')) el.showPopover();
    if (!any && el.matches(':popover-open')) el.hidePopover();
  }, [any]);
  const words = [
    told.map((t) => `${t.done ? DONE : REFUSED} ${t.label}. ${t.message}`).join(' '),
    waiting.length > 0 ? `${WAITING} ${waiting.map((w) => w.label).join('; ')}. ${WAITING_HOW}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <>
      <div role="status" className="visually-hidden">
        {words && `${words} ${WHERE}`}
      </div>
      <div popover="manual" ref={shown} className="offline-bar" data-waiting={waiting.length || undefined}>
        {told.map((t) => (
          <ToldLine key={t.id} told={t} />
        ))}
        {waiting.length > 0 && <WaitingLines waiting={waiting} />}
      </div>
    </>
  );
}

function ToldLine({ told }: { told: Told }) {
  return (
    <p>
      <span aria-hidden="true">
        {told.done ? DONE : REFUSED} {told.label}. {told.message}
      </span>{' '}
      {told.href && (
        <>
          <a href={told.href} aria-label={`${SEE}: ${told.label}`}>
            {SEE}
          </a>{' '}
        </>
      )}
      <button type="button" className="button secondary" aria-label={`Close: ${told.label}`} onClick={() => dismissTold(told.id)}>
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
