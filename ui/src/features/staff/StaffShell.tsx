// The back office's frame (its routes say `shell: 'own'`, so App.tsx draws none of the shop's):
// the store's name, who is signed in and as what, Sign Out, and the links the role may use; no
// location, cart, search, newsletter or footer. Full width on a desk; on a phone the mark, the
// name and Sign Out share one row (the store's name is kept for screen readers only) and the links
// scroll sideways in a second, so a rider's stops start near the top of the screen whatever the
// phone's font.
import type { ReactNode } from 'react';
import { calls, type StaffMember, type StaffSelf } from '../../api/contract.gen';
import { LogoMark } from '../../components/LogoMark';
import { FormCall, useAccountForm } from '../../components/form';

export const ROLE_NAMES: Record<StaffMember['role'], string> = { manager: 'Manager', dispatcher: 'Dispatcher', rider: 'Rider' };

/** The back office's links for a role: the runs for everyone (a rider's own), the orders and the day report for dispatchers and managers, the catalog, the staff, the audit log, a guest's data and the maintenance switch for managers. */
export function staffLinks(role: StaffMember['role']): [string, string][] {
  const links: [string, string][] = [['/staff', role === 'rider' ? 'Home' : 'Dashboard']];
  if (role === 'manager' || role === 'dispatcher') links.push(['/staff/orders', 'Orders']);
  links.push(['/staff/runs', role === 'rider' ? 'My Runs' : 'Runs']);
  if (role === 'manager' || role === 'dispatcher') links.push(['/staff/day', 'Day Report']);
  if (role === 'manager') links.push(['/staff/catalog', 'Catalog'], ['/staff/team', 'Staff'], ['/staff/audit', 'Audit Log'], ['/staff/guest-data', 'Guest Data'], ['/staff/maintenance', 'Maintenance']);
  return links;
}

/**
 * The frame of a back office page. `me`: the signed-in member of staff (none on the sign-in
 * pages); `section`: the link the page is under (an order's page is under Orders); `here`: the
 * page's own path (its link, if it has one, is the page); `signOutTo`: where Sign Out posts (a page
 * whose route runs the sign-out call; `here` unless said).
 */
export function StaffShell({ me, section, here, signOutTo, children }: { me?: StaffSelf; section: string; here: string; signOutTo?: string; children: ReactNode }) {
  const [state, submit] = useAccountForm();
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="staff-header">
        <div className="staff-bar">
          <a className="brand" href={me ? '/staff' : '/staff/login'}>
            <LogoMark />
            <span className="staff-brand-name">{' Tala Brewing Co. '}</span>
            <span className="staff-brand-word">Back Office</span>
          </a>
          {me && (
            <div className="staff-who">
              <span>
                <strong>{me.member.name}</strong>
                {`, ${ROLE_NAMES[me.member.role]}`}
              </span>
              <form method="post" action={signOutTo ?? here} onSubmit={submit}>
                <FormCall call={calls.staffLogout} />
                <button type="submit" disabled={state.busy}>
                  Sign Out
                </button>
              </form>
            </div>
          )}
        </div>
        {me && (
          <nav aria-label="Back office" className="staff-nav">
            <ul>
              {staffLinks(me.member.role).map(([href, text]) => (
                <li key={href}>
                  <a href={href} aria-current={href === here ? 'page' : href === section ? 'true' : undefined}>
                    {text}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </header>
      <main id="main" className="staff-main">
        {children}
      </main>
    </>
  );
}
