import { useEffect, useState, type ReactNode } from 'react';

/** How long the reason stays in the live region after a press (then it is left to the note). */
const SAID_MS = 5000;

/**
 * An action that cannot be taken now (Proceed To Checkout, Submit Order): a button that stays in
 * the Tab order, says it is unavailable (`aria-disabled`) and names why (`aria-describedby`: the
 * visible note `reasonId`). Pressing it does nothing but say the reason again, in a live region.
 * Without JavaScript a `type="submit"` one posts its form, and the server refuses it with the same
 * reason; a `type="button"` one does nothing.
 */
export function BlockedButton({
  reason,
  reasonId,
  type = 'button',
  className,
  children,
}: {
  reason: string;
  reasonId: string;
  type?: 'button' | 'submit';
  className?: string;
  children: ReactNode;
}) {
  const [said, setSaid] = useState('');
  useEffect(() => {
    if (!said) return;
    const t = setTimeout(() => setSaid(''), SAID_MS);
    return () => clearTimeout(t);
  }, [said]);
  return (
    <>
      <button
        type={type}
        className={className}
        aria-disabled="true"
        aria-describedby={reasonId}
        onClick={(e) => {
          e.preventDefault();
          // A second press says it again (the region's text changes).
          setSaid((s) => (s === reason ? `${reason}\u00a0` : reason));
        }}
      >
        {children}
      </button>
      <span className="visually-hidden" role="status">
        {said}
      </span>
    </>
  );
}
