import { useSyncExternalStore } from 'react';

function subscribe(changed: () => void): () => void {
  window.addEventListener('online', changed);
  window.addEventListener('offline', changed);
  return () => {
    window.removeEventListener('online', changed);
    window.removeEventListener('offline', changed);
  };
}

/**
 * Says so while the browser has no connection, and what still works. With JavaScript only: the
 * server renders it empty (a page it rendered was reached online), a live region waiting.
 */
export function OfflineBar() {
  const offline = useSyncExternalStore(
    subscribe,
    () => !navigator.onLine,
    () => false,
  );
  return (
    <div role="status" className="offline-bar">
      {offline ? 'You are offline. Pages you have opened before still open; a change to your cart is sent when the connection is back.' : ''}
    </div>
  );
}
