import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { staffMeQuery } from './queries';
import { StaffShell } from './StaffShell';

/**
 * A signed-in page of the back office, in its frame: `current` is the section's link (an order's
 * page is under /staff/orders), `action` the page's own address when it is not that link (Sign Out
 * posts there), the page's section titled `title` (`{id}-title`).
 */
export function StaffPage({ current, action, id, title, children }: { current: string; action?: string; id: string; title: string; children: ReactNode }) {
  const me = useQuery(staffMeQuery.options());
  return (
    <StaffShell me={me.data} section={current} here={action ?? current}>
      <section className="staff-page" aria-labelledby={`${id}-title`}>
        <h1 id={`${id}-title`}>{title}</h1>
        {children}
      </section>
    </StaffShell>
  );
}
