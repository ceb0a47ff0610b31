import { useEffect, useRef, useSyncExternalStore } from 'react';
import { current, subscribe, type Delivery } from '../api/outbox';

const SENDING = 'Sending… The connection is slow or lost; your change is sent again until the store answers.';
const NOT_SENT = 'Not sent — the store could not be reached. Your change is kept on this page.';

/**
 * What happens to a change sent on a failing link (`api/outbox.ts`): "Sending…" while it is sent
 * again, "Not sent" with Retry and Give up when the tries failed. Screen readers hear it from a
 * live region that is always there (empty otherwise, and on the server: nothing is sent before
 * the page runs); it is seen in a popover, which the browser shows above everything, wherever the
 * page is scrolled, with no stylesheet of ours (the inlined one has no byte to spare: every byte
 * delays <main> in the first round trip).
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
  return (
    <>
      <div role="status" className="visually-hidden">
        {delivery?.state === 'sending' ? SENDING : delivery?.state === 'failed' ? NOT_SENT : ''}
      </div>
      <div popover="manual" ref={shown} className="offline-bar" data-sending={delivery?.state}>
        {delivery && <Shown delivery={delivery} />}
      </div>
    </>
  );
}

function Shown({ delivery }: { delivery: Delivery }) {
  if (delivery.state === 'sending') return <span aria-hidden="true">{SENDING}</span>;
  return (
    <span>
      <span aria-hidden="true">{NOT_SENT}</span>{' '}
      <button type="button" className="button" onClick={delivery.retry}>
        Retry
      </button>{' '}
      <button type="button" className="button secondary" onClick={delivery.giveUp}>
        Give up
      </button>
    </span>
  );
}
