import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { calls, type StaffSelf } from '../../api/contract.gen';
import { FramedPage, SideNav } from '../../components/AccountPage';
import { FormCall, useAccountForm } from '../../components/form';
import { staffMeQuery } from './queries';

/** The back office's links: the runs for everyone (a rider's own), the orders and the day report for dispatchers and managers, the staff, the audit log, a guest's data and the maintenance switch for managers. */
function staffLinks(me: StaffSelf | undefined): [string, string][] {
  const links: [string, string][] = [['/staff', 'Back Office']];
  const role = me?.member.role;
  if (role === 'manager' || role === 'dispatcher') links.push(['/staff/orders', 'Orders']);
  if (role) links.push(['/staff/runs', role === 'rider' ? 'My Runs' : 'Runs']);
  if (role === 'manager' || role === 'dispatcher') links.push(['/staff/day', 'Day Report']);
  if (role === 'manager') links.push(['/staff/catalog', 'Catalog'], ['/staff/team', 'Staff'], ['/staff/audit', 'Audit Log'], ['/staff/guest-data', 'Guest Data'], ['/staff/maintenance', 'Maintenance']);
  return links;
}

/** A signed-in page of the back office: its links, the page's section, and Sign Out (posted to the page's own address). */
export function StaffPage({ current, action, id, title, children }: { current: string; action?: string; id: string; title: string; children: ReactNode }) {
  const me = useQuery(staffMeQuery.options());
  const [state, submit] = useAccountForm();
  const nav = (
    <SideNav label="Back office" links={staffLinks(me.data)} current={current}>
      <form method="post" action={action ?? current} onSubmit={submit}>
        <FormCall call={calls.staffLogout} />
        <button type="submit" disabled={state.busy}>
          Sign Out
        </button>
      </form>
    </SideNav>
  );
  return (
    <FramedPage nav={nav} id={id} title={title}>
      {children}
    </FramedPage>
  );
}
