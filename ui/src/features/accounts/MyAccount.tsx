import { useQuery } from '@tanstack/react-query';
import { calls, type Member } from '../../api/contract.gen';
import { QueryState } from '../../components/QueryState';
import { usePage } from '../../page';
import { AccountPage } from '../../components/AccountPage';
import { DoneMessage, Field, FormCall, FormMessage, useAccountForm, useDone } from '../../components/form';
import { MEMBER_FIELDS, MemberFields } from './MemberFields';
import { userQuery } from './queries';

function Profile({ user }: { user: Member }) {
  const [state, submit] = useAccountForm();
  return (
    <form method="post" action="/my-account" onSubmit={submit} noValidate aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      <FormCall call={calls.updateUser} />
      <p>
        Email address: <strong>{user.email}</strong>
      </p>
      <MemberFields state={state} user={user} />
      <Field
        name="current_password"
        label="Current password"
        type="password"
        autoComplete="current-password"
        hint="Needed only to change your mobile number, which you can log in with."
        state={state}
      />
      <FormMessage state={state} fields={[...MEMBER_FIELDS, 'current_password']} />
      <button type="submit" disabled={state.busy}>
        Save Profile
      </button>
    </form>
  );
}

export function MyAccount() {
  const page = usePage();
  const user = useQuery(userQuery.options());
  const done = useDone({
    profile: 'Your profile has been saved.',
    password: 'Your password has been changed. You were logged out on your other devices.',
  });
  const member = user.data && 'email' in user.data.data ? (user.data.data as Member) : null;
  return (
    <AccountPage current="/my-account" id="account" title="My Account">
      <p>Hello, {page.member?.firstname ?? member?.firstname}!</p>
      <DoneMessage text={done} />
      <QueryState query={user} loading="Loading your profile…" error="We could not load your profile. Please reload the page." retry>
        {() => (member ? <Profile user={member} /> : null)}
      </QueryState>
      <h2>Your data</h2>
      <p>
        <a href="/my-account/my-data">Download my data</a>: see or download everything we hold about you.
      </p>
    </AccountPage>
  );
}

/** The delete-account page; the account goes only after the member confirms. */
export function DeleteAccount() {
  const [state, submit] = useAccountForm();
  return (
    <AccountPage current="/my-account/delete-account" id="delete" title="Delete Account">
      <p>
        Deleting your account removes your profile, your saved addresses, your Go-to Cases and your newsletter signup, and logs you out everywhere. Orders you
        placed are kept for our records without your name. This cannot be undone.
      </p>
      <form method="post" action="/my-account/delete-account" onSubmit={submit} noValidate>
        <FormCall call={calls.deleteUser} />
        <Field name="current_password" label="Current password" type="password" autoComplete="current-password" state={state} required />
        <div className="field">
          <label className="checkbox">
            <input
              type="checkbox"
              name="confirm"
              value="1"
              aria-invalid={state.errors.confirm ? true : undefined}
              aria-describedby={state.errors.confirm ? 'field-confirm-error' : undefined}
            />{' '}
            I understand that my account and its data will be deleted.
          </label>
          {state.errors.confirm && (
            <p className="hint" id="field-confirm-error">
              {state.errors.confirm.join(' ')}
            </p>
          )}
        </div>
        <FormMessage state={state} fields={['current_password', 'confirm']} />
        <button type="submit" className="danger" disabled={state.busy}>
          Delete Account
        </button>
      </form>
    </AccountPage>
  );
}
