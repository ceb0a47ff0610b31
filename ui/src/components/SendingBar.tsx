import { useEffect, useRef, useSyncExternalStore } from 'react';
import { current, subscribe, type Delivery } from '../api/outbox';

const SENDING = 'Sending… The connection is slow or lost; your change is sent again until the store answers.';
const NOT_SENT = 'Not sent — the store could not be reached. Your change is kept on this page.';
const WHERE = 'Retry and Give up are at the end of the page.';

/**
 * What happens to a change sent on a failing link (`api/outbox.ts`): "Sending…" while it is sent
 * (again), "Not sent" when the tries failed; Give up at any moment, Retry once it waits. Screen
 * readers hear it from a live region that is always there (empty otherwise, and on the server:
 * nothing is sent before the page runs), told where the buttons are; it is seen in a popover,
 * which the browser shows above everything, wherever the page is scrolled, with no stylesheet of
 * ours (the inlined one has no byte to spare: every byte delays <main> in the first round trip).
 * Both buttons stay while it is shown, so a pressed Retry keeps the focus.
 */
export function SendingBar() {
  const delivery = useSyncExternalStore(subscribe, current, () => null);
  const shown = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = shown.current;
    if (!el || typeof el.showPopover !== 'function') return;
    if (delivery && !el.matches(':popover-open')) el.showPopover();
    if (!delivery && el.matches(':popover-open')) el.hidePopover();
  }, [delivery]);
  const words = delivery?.state === 'sending' ? SENDING : delivery?.state === 'failed' ? NOT_SENT : '';
  return (
    <>
      <div role="status" className="visually-hidden">
        {words && `${words} ${WHERE}`}
      </div>
      <div popover="manual" ref={shown} className="offline-bar" data-sending={delivery?.state}>
        {delivery && <Shown delivery={delivery} words={words} />}
      </div>
    </>
  );
}

function Shown({ delivery, words }: { delivery: Delivery; words: string }) {
  const waiting = delivery.state === 'failed';
  return (
    <span>
      <span aria-hidden="true">{words}</span>{' '}
      <button type="button" className="button" aria-disabled={!waiting} onClick={waiting ? delivery.retry : undefined}>
        Retry
      </button>{' '}
      <button type="button" className="button secondary" onClick={delivery.giveUp}>
        Give up
      </button>
    </span>
  );
}
