import { calls, PASSWORD_RULE } from '../../api/contract.gen';
import { usePageParam } from '../../page';
import { DoneMessage, Field, FormCall, FormMessage, useAccountForm, useDone } from '../../components/form';
import { StaffShell } from './StaffShell';

/** The staff's sign-in: email and password; the second factor comes next. */
export function Login() {
  const done = useDone({
    password: 'Your password is set. Sign in with your email address and it.',
    'signed-out': 'You have signed out.',
  });
  const [state, submit] = useAccountForm();
  return (
    <StaffShell section="/staff/login" here="/staff/login">
      <section className="account-page" aria-labelledby="staff-login-title">
        <h1 id="staff-login-title">Staff Sign In</h1>
        <DoneMessage text={done} />
        <form method="post" action="/staff/login" onSubmit={submit} noValidate>
          <FormCall call={calls.staffLogin} />
          {/* A failed sign-in shows the server's one message (it never says which part was wrong). */}
          <Field name="email" label="Email address" type="email" autoComplete="username" state={{ ...state, errors: {} }} required />
          <Field name="password" label="Password" type="password" autoComplete="current-password" state={{ ...state, errors: {} }} required />
          <FormMessage state={state} />
          <button type="submit" disabled={state.busy}>
            {state.busy ? 'Signing In…' : 'Sign In'}
          </button>
        </form>
        <p>Shopping? <a href="/login">Log in to your shopper account</a> instead.</p>
      </section>
    </StaffShell>
  );
}

/** The mailed link's page: the new member of staff chooses their password. */
export function ChoosePassword() {
  const token = usePageParam('token') ?? '';
  const [state, submit] = useAccountForm();
  return (
    <StaffShell section="/staff/password" here="/staff/password">
      <section className="account-page" aria-labelledby="staff-password-title">
        <h1 id="staff-password-title">Choose Your Password</h1>
        {token ? (
          <form method="post" action="/staff/password" onSubmit={submit} noValidate>
            <FormCall call={calls.staffPassword} />
            <input type="hidden" name="token" value={token} />
            <Field name="password" label="New password" type="password" autoComplete="new-password" hint={PASSWORD_RULE} state={state} required />
            <FormMessage state={state} fields={['password']} />
            <button type="submit" disabled={state.busy}>
              {state.busy ? 'Saving…' : 'Set Password'}
            </button>
          </form>
        ) : (
          <p role="alert">This page opens from the link in the mail that added you to the staff. Ask a manager for a new one.</p>
        )}
      </section>
    </StaffShell>
  );
}
