import { useEffect, useRef, useState } from 'react';

/** SPEC 2: home after deleting the account (`accountSuccessDelete=yes`). Without JS the button is a link home. */
export function AccountDeleted() {
  const [open, setOpen] = useState(true);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  if (!open) return null;
  return (
    <div className="overlay">
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="deleted-title" tabIndex={-1} ref={ref}>
        <h2 id="deleted-title">ACCOUNT DELETED</h2>
        <p>Your account and its personal data have been deleted. You can keep shopping as a guest.</p>
        <div className="dialog-actions">
          <a
            className="button"
            href="/"
            onClick={(e) => {
              e.preventDefault();
              setOpen(false);
              window.history.replaceState(null, '', '/');
            }}
          >
            CONTINUE AS GUEST
          </a>
        </div>
      </div>
    </div>
  );
}
