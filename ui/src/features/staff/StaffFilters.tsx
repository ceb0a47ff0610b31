// The back office's filter forms (the orders board, the audit log): a GET form whose fields sit in
// one row on a desk and fold into as many rows as a phone needs, with Filter and Clear at the end.
import type { ReactNode } from 'react';

/** A filter form of the page at `action`; `clear` shows Clear (back to the page unfiltered). */
export function StaffFilters({ action, label, clear, children }: { action: string; label: string; clear: boolean; children: ReactNode }) {
  return (
    <form method="get" action={action} className="staff-filters" aria-label={label}>
      {children}
      <div className="filter-actions">
        <button type="submit">Filter</button>
        {clear && <a href={action}>Clear</a>}
      </div>
    </form>
  );
}

/** One filter: its label above its control (`children`, whose id is `id`). */
export function Filter({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="filter">
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}
