import { calls, PASSWORD_RULE } from '../../api/contract.gen';
import { usePageParam } from '../../page';
import { AccountPage } from '../../components/AccountPage';
import { DoneMessage, Field, FormCall, FormMessage, useAccountForm, useDone } from '../../components/form';

/** /reset-password: asks for the address to mail a link to; the link's page (`suid`) sets the new password. */
export function ResetPassword() {
  const suid = usePageParam('suid');
  const done = useDone({
    sent: 'If an account uses that address, we have sent it a link to reset the password. The link works for 60 minutes.',
  });
  const [request, sendLink] = useAccountForm();
  const [reset, setPassword] = useAccountForm();
  return (
    <section className="account-page" aria-labelledby="reset-title">
      <h1 id="reset-title">Reset Password</h1>
      {suid ? (
        // Posted to the link's own address, so a form that comes back with a message keeps the link.
        <form method="post" action={`/reset-password?suid=${encodeURIComponent(suid)}`} onSubmit={setPassword} noValidate>
          <FormCall call={calls.resetPassword} />
          <input type="hidden" name="suid" value={suid} />
          <Field name="password" label="New password" type="password" autoComplete="new-password" hint={PASSWORD_RULE} state={reset} required />
          <FormMessage state={reset} fields={['password']} />
          <button type="submit" disabled={reset.busy}>
            Set New Password
          </button>
        </form>
      ) : (
        <>
          {done ? (
            <DoneMessage text={done} />
          ) : (
            <p>Enter the email address of your account and we will send you a link to choose a new password.</p>
          )}
          <form method="post" action="/reset-password" onSubmit={sendLink} noValidate>
            <FormCall call={calls.resetLink} />
            <Field name="email" label="Email address" type="email" autoComplete="email" state={request} required />
            <FormMessage state={request} fields={['email']} />
            <button type="submit" disabled={request.busy}>
              Send Reset Link
            </button>
          </form>
          <p>
            <a href="/login">Back to Log In</a>
          </p>
        </>
      )}
    </section>
  );
}

/** /change-password (members): the current password and a new one; other devices are logged out. */
export function ChangePassword() {
  const [state, submit] = useAccountForm();
  return (
    <AccountPage current="/change-password" id="change" title="Change Password">
      <p>Changing your password logs you out on every other device.</p>
      <form method="post" action="/change-password" onSubmit={submit} noValidate>
        <FormCall call={calls.changePassword} />
        <Field name="current_password" label="Current password" type="password" autoComplete="current-password" state={state} required />
        <Field name="password" label="New password" type="password" autoComplete="new-password" hint={PASSWORD_RULE} state={state} required />
        <FormMessage state={state} fields={['current_password', 'password']} />
        <button type="submit" disabled={state.busy}>
          Change Password
        </button>
      </form>
    </AccountPage>
  );
}
