import { useLayoutEffect, useState } from 'react';
import type { DisabledProduct } from '../../api/contract.gen';
import { Dialog } from '../../components/Dialog';

/**
 * The cart's Error modal: the server's message and the products it names, until the
 * shopper closes it (Close or Escape); focus then goes back where it was.
 */
export function CartErrorDialog({ message, products, onClose }: { message: string; products: DisabledProduct[]; onClose: () => void }) {
  // What had focus before the dialog took it (read before the dialog's own effect focuses it).
  const [before] = useState(() => (typeof document === 'undefined' ? null : document.activeElement));
  // Given back as the dialog goes, in the same commit (a passive effect's cleanup may run a frame
  // after the dialog left, and focus sits on the page's body in between).
  useLayoutEffect(
    () => () => {
      if (before instanceof HTMLElement && before.isConnected) before.focus();
    },
    [before],
  );
  return (
    <div
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <Dialog title="Error">
        <p>{message}</p>
        {products.length > 0 && (
          <ul className="refused">
            {products.map((p) => (
              <li key={p.id}>
                <strong>{p.product_name}</strong>: {p.reason}
              </li>
            ))}
          </ul>
        )}
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
      </Dialog>
    </div>
  );
}
