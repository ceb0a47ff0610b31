import { useQuery } from '@tanstack/react-query';
import type { AuditEntry } from '../../api/contract.gen';
import { QueryState } from '../../components/QueryState';
import { DoneMessage, useDone } from '../../components/form';
import { fillTemplate } from '../../lib/keys';
import { usePage, usePageParam } from '../../page';
import { auditQuery, staffMeQuery } from './queries';
import { Dashboard } from './Dashboard';
import { Filter, StaffFilters } from './StaffFilters';
import { StaffPage } from './StaffPage';
import { ROLE_NAMES } from './StaffShell';

export function StaffHome() {
  const me = useQuery(staffMeQuery.options());
  const done = useDone({ 'signed-in': 'You are signed in.' });
  return (
    <StaffPage current="/staff" id="staff-home" title="Back Office">
      <DoneMessage text={done} />
      <QueryState query={me} loading="Loading…" error="We could not load your account. Please reload the page." retry>
        {(s) => (
          <>
            <p>
              Signed in as <strong>{s.member.name}</strong> ({s.member.email}), {ROLE_NAMES[s.member.role].toLowerCase()}.
            </p>
            <p>{`Recovery codes left: ${s.recovery_codes_left}${s.recovery_codes_left < 3 ? ' (running out: ask a manager to set up your second factor again)' : ''}.`}</p>
            {s.member.role !== 'rider' && <Dashboard />}
          </>
        )}
      </QueryState>
    </StaffPage>
  );
}

function Change({ entry }: { entry: AuditEntry }) {
  if (!entry.before && !entry.after) return null;
  return (
    <>
      {entry.before && <code>{entry.before}</code>}
      {entry.before && entry.after && ' → '}
      {entry.after && <code>{entry.after}</code>}
    </>
  );
}

/** The audit log, newest first, for managers; filtered by a member of staff or a kind of write. */
export function AuditLog() {
  const vars = { before: usePageParam('before') ?? undefined, staff: usePageParam('staff') ?? undefined, action: usePageParam('action') ?? undefined };
  // Keyed as the server loaded it (the page's own variables).
  const log = useQuery(auditQuery.options(usePage().vars));
  // No URLSearchParams: QuickJS, which renders on the server, has none.
  const older = (before: number) => fillTemplate('/staff/audit?before={before}&staff={staff}&action={action}', { ...vars, before: String(before) });
  return (
    <StaffPage current="/staff/audit" id="staff-audit" title="Audit Log">
      <StaffFilters action="/staff/audit" label="Filter the log" clear={Boolean(vars.action || vars.staff)}>
        <Filter id="audit-action" label="Kind of write">
          <input id="audit-action" name="action" defaultValue={vars.action} placeholder="staff.role" />
        </Filter>
        <Filter id="audit-staff" label="Staff id">
          <input id="audit-staff" name="staff" inputMode="numeric" defaultValue={vars.staff} />
        </Filter>
      </StaffFilters>
      <QueryState query={log} loading="Loading the log…" error="We could not load the log. Please reload the page." retry isEmpty={(l) => l.entries.length === 0} empty="Nothing recorded here.">
        {(l) => (
          <>
            <table className="staff-table cards">
              <caption>Staff writes, newest first (Manila time)</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Change</th>
                </tr>
              </thead>
              <tbody>
                {l.entries.map((e) => (
                  <tr key={e.id}>
                    <td className="nowrap">{e.at_manila}</td>
                    <td data-label="Who">{e.actor}</td>
                    <td data-label="What">{e.action}</td>
                    <td data-label="Subject">{e.subject}</td>
                    <td data-label="Change">
                      <Change entry={e} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {l.next_before !== null && (
              <p>
                <a href={older(l.next_before)} rel="next">
                  Older entries
                </a>
              </p>
            )}
          </>
        )}
      </QueryState>
    </StaffPage>
  );
}
