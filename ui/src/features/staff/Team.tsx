import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { calls, type StaffMember } from '../../api/contract.gen';
import { QueryState } from '../../components/QueryState';
import { DoneMessage, Field, FormCall, FormMessage, useAccountForm, useDone } from '../../components/form';
import { staffMeQuery, teamQuery } from './queries';
import { ROLE_NAMES } from './StaffShell';
import { StaffPage } from './StaffPage';

const ROLES = Object.keys(ROLE_NAMES) as StaffMember['role'][];

function RoleSelect({ id, value }: { id: string; value?: StaffMember['role'] }) {
  return (
    <select id={id} name="role" defaultValue={value ?? 'dispatcher'}>
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {ROLE_NAMES[r]}
        </option>
      ))}
    </select>
  );
}

/** A change of one member: a form of its own, posted to the page's address. */
function ChangeForm({ member, children, label }: { member: StaffMember; children?: ReactNode; label: string }) {
  const [state, submit] = useAccountForm();
  return (
    <form method="post" action="/staff/team" onSubmit={submit} className="inline-form">
      <FormCall call={calls.staffChange} />
      <input type="hidden" name="staffId" value={String(member.id)} />
      {children}
      <button type="submit" disabled={state.busy}>
        {label}
      </button>
      <FormMessage state={state} />
    </form>
  );
}

function MemberRow({ member, me }: { member: StaffMember; me: boolean }) {
  return (
    <tr>
      <td>{member.name}</td>
      <td>{member.email}</td>
      <td>{ROLE_NAMES[member.role]}</td>
      <td>{member.password_set ? 'Chosen' : 'Link sent'}</td>
      <td>{member.second_factor ? 'Set up' : 'Not yet'}</td>
      <td>{member.disabled ? 'Disabled' : 'Active'}</td>
      <td>
        {me ? (
          'You'
        ) : (
          <>
            <ChangeForm member={member} label="Change Role">
              <label htmlFor={`role-${member.id}`}>{`Role of ${member.name}`}</label>
              <RoleSelect id={`role-${member.id}`} value={member.role} />
            </ChangeForm>
            <ChangeForm member={member} label={member.disabled ? 'Enable' : 'Disable'}>
              <input type="hidden" name="disabled" value={member.disabled ? 'false' : 'true'} />
            </ChangeForm>
          </>
        )}
        <ChangeForm member={member} label="Send New Link">
          <input type="hidden" name="invite" value="true" />
        </ChangeForm>
      </td>
    </tr>
  );
}

function AddMember() {
  const [state, submit] = useAccountForm();
  return (
    <form method="post" action="/staff/team" onSubmit={submit} noValidate aria-labelledby="add-title">
      <h2 id="add-title">Add a member of staff</h2>
      <FormCall call={calls.staffAdd} />
      <Field name="email" label="Email address" type="email" state={state} required />
      <Field name="name" label="Name" state={state} />
      <div className="field">
        <label htmlFor="add-role">Role</label>
        <RoleSelect id="add-role" />
      </div>
      <FormMessage state={state} fields={['email', 'name', 'role']} />
      <button type="submit" disabled={state.busy}>
        Add and Mail a Link
      </button>
    </form>
  );
}

/** The staff, for managers: who can sign in, and adding, changing and disabling them. */
export function Team() {
  const team = useQuery(teamQuery.options());
  const me = useQuery(staffMeQuery.options());
  const done = useDone({ added: 'Added: they are mailed a link to choose a password.', changed: 'Saved.' });
  return (
    <StaffPage current="/staff/team" id="staff-team" title="Staff">
      <DoneMessage text={done} />
      <QueryState query={team} loading="Loading the staff…" error="We could not load the staff. Please reload the page." retry>
        {(t) => (
          <table>
            <caption>Everyone who can sign in to the back office</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Password</th>
                <th scope="col">Second factor</th>
                <th scope="col">Standing</th>
                <th scope="col">Change</th>
              </tr>
            </thead>
            <tbody>
              {t.results.map((m) => (
                <MemberRow key={m.id} member={m} me={m.id === me.data?.member.id} />
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
      <AddMember />
    </StaffPage>
  );
}
