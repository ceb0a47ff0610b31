import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { usePage } from '../../page';
import { staffMeQuery } from './queries';
import { StaffShell } from './StaffShell';

/**
 * A signed-in page of the back office, in its frame: `current` is the section's link (an order's
 * page is under /staff/orders), `action` where Sign Out posts when it is not that link (a page whose
 * route runs the sign-out call), the page's section titled `title` (`{id}-title`).
 */
export function StaffPage({ current, action, id, title, children }: { current: string; action?: string; id: string; title: string; children: ReactNode }) {
  const me = useQuery(staffMeQuery.options());
  // The page's own path (without its query), which the frame's links mark as the page.
  const here = usePage().url.split(/[?#]/)[0];
  return (
    <StaffShell me={me.data} section={current} here={here} signOutTo={action ?? current}>
      <section className="staff-page" aria-labelledby={`${id}-title`}>
        <h1 id={`${id}-title`}>{title}</h1>
        {children}
      </section>
    </StaffShell>
  );
}
