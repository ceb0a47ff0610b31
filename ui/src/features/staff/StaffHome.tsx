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

/** Who wrote an entry: linked to the staff's page when a member of staff wrote it. */
function Actor({ entry }: { entry: AuditEntry }) {
  return entry.actor_href ? <a href={entry.actor_href}>{entry.actor}</a> : <>{entry.actor}</>;
}

/** What an entry wrote to, in the staff's words (an order's number, a member's name), each part linked to its page. */
function Subject({ entry }: { entry: AuditEntry }) {
  return (
    <>
      {entry.subjects.map((s, i) => (
        <span key={i}>
          {i > 0 && ', '}
          {s.href ? <a href={s.href}>{s.label}</a> : s.label}
        </span>
      ))}
    </>
  );
}

/** The audit log, newest first, for managers; filtered by who (a name or email typed) and a kind of write (one of the log's). */
export function AuditLog() {
  const vars = { before: usePageParam('before') ?? undefined, staff: usePageParam('staff') ?? undefined, who: usePageParam('who') ?? undefined, action: usePageParam('action') ?? undefined };
  // Keyed as the server loaded it (the page's own variables).
  const log = useQuery(auditQuery.options(usePage().vars));
  // No URLSearchParams: QuickJS, which renders on the server, has none.
  const older = (before: number) => fillTemplate('/staff/audit?before={before}&staff={staff}&who={who}&action={action}', { ...vars, before: String(before) });
  // The kinds the log holds, and the one asked for even when it holds none of it.
  const kinds = log.data?.actions ?? [];
  const options = vars.action && !kinds.includes(vars.action) ? [vars.action, ...kinds] : kinds;
  return (
    <StaffPage current="/staff/audit" id="staff-audit" title="Audit Log">
      <StaffFilters action="/staff/audit" label="Filter the log" clear={Boolean(vars.action || vars.staff || vars.who)}>
        <Filter id="audit-who" label="Who (part of a name or email)">
          <input id="audit-who" name="who" type="search" defaultValue={vars.who} placeholder="Ana or ana@" />
        </Filter>
        <Filter id="audit-action" label="Kind of write">
          <select id="audit-action" name="action" defaultValue={vars.action ?? ''}>
            <option value="">Every kind</option>
            {options.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </Filter>
        {/* A link's filter by one member (their id) holds until the form asks for another. */}
        {vars.staff && <input type="hidden" name="staff" value={vars.staff} />}
      </StaffFilters>
      <QueryState query={log} loading="Loading the log…" error="We could not load the log. Please reload the page." retry isEmpty={(l) => l.entries.length === 0} empty="Nothing recorded here.">
        {(l) => (
          <>
            <table className="staff-table cards">
              <caption>Staff writes and sign-ins, newest first (Manila time)</caption>
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
                    <td data-label="Who">
                      <Actor entry={e} />
                    </td>
                    <td data-label="What">{e.action}</td>
                    <td data-label="Subject">
                      <Subject entry={e} />
                    </td>
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
