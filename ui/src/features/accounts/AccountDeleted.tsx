import { useState } from 'react';
import { Dialog } from '../../components/Dialog';

/** Home after deleting the account (`accountSuccessDelete=yes`). Without JS the button is a link home. */
export function AccountDeleted() {
  const [open, setOpen] = useState(true);
  if (!open) return null;
  return (
    <Dialog title="ACCOUNT DELETED">
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
    </Dialog>
  );
}
