import { useQuery } from '@tanstack/react-query';
import { calls, PASSWORD_RULE } from '../../api/contract.gen';
import { usePageParam } from '../../page';
import { MEMBER_FIELDS, MemberFields } from './MemberFields';
import { pendingRegistrationQuery } from './queries';
import { DoneMessage, Field, FormCall, FormMessage, useAccountForm, useDone } from '../../components/form';

/** The emailed link's page: creates the account the link was sent for, with the password its
 * holder chooses; the details it is made with are shown first (the server renders them). */
function FinishRegistration({ token }: { token: string }) {
  // A link that does not work says so at once (no retry).
  const pending = useQuery({ ...pendingRegistrationQuery.options({ token }), retry: false });
  const [state, submit] = useAccountForm();
  const who = pending.data?.data;
  const linkError = pending.error instanceof Error ? pending.error.message : null;
  return (
    <section className="account-page" aria-labelledby="registration-title">
      <h1 id="registration-title">Create Account</h1>
      <p>{who ? `Finish creating the account for ${who.email}: choose its password.` : 'Finish creating your account: choose its password.'}</p>
      {who && (
        <p className="field-hint">
          {`It is made with the details given when the link was asked for: ${who.first_name} ${who.last_name}, mobile ${who.mobile}, born ${who.birth_date}. If any is not yours, change it in My Account once the account is made.`}
        </p>
      )}
      {linkError && !state.message && (
        <p className="form-message error" role="alert">
          {linkError}
        </p>
      )}
      {/* Posted to the link's own address, so a form that comes back with a message keeps the link. */}
      <form method="post" action={`/registration?token=${encodeURIComponent(token)}`} onSubmit={submit}>
        <FormCall call={calls.registration} />
        <input type="hidden" name="token" value={token} />
        <Field name="password" label="Choose a password" type="password" autoComplete="new-password" hint={PASSWORD_RULE} state={state} required />
        <FormMessage state={state} fields={['password']} />
        <button type="submit" disabled={state.busy}>
          {state.busy ? 'Creating Your Account…' : 'Create My Account'}
        </button>
      </form>
    </section>
  );
}

export function Registration() {
  const token = usePageParam('token');
  const done = useDone({
    sent: 'Check your email: we sent you a link to finish creating your account. The link works for 24 hours.',
  });
  const [state, submit] = useAccountForm();
  if (token) return <FinishRegistration token={token} />;
  const termsErrors = state.errors.accept_terms ?? [];
  return (
    <section className="account-page" aria-labelledby="registration-title">
      <h1 id="registration-title">Create Account</h1>
      {done ? (
        <DoneMessage text={done} />
      ) : (
        <p>
          Members save their addresses, reorder their Go-to Cases and see their orders. You must be 18 or older. We email you a link
          to choose your password.
        </p>
      )}
      <form method="post" action="/registration" onSubmit={submit} noValidate>
        <FormCall call={calls.preRegister} />
        <MemberFields
          state={state}
          between={<Field name="email" label="Email address" type="email" autoComplete="email" state={state} required />}
        />
        <div className="field">
          <label className="checkbox">
            <input
              type="checkbox"
              name="accept_terms"
              value="true"
              aria-invalid={termsErrors.length > 0 || undefined}
              aria-describedby={termsErrors.length ? 'field-accept_terms-error' : undefined}
            />{' '}
            I accept the <a href="/terms-and-conditions">Terms and Conditions</a> and the <a href="/privacy-policy">Privacy Policy</a>.
          </label>
          {termsErrors.length > 0 && (
            <p className="hint" id="field-accept_terms-error">
              {termsErrors.join(' ')}
            </p>
          )}
        </div>
        <FormMessage state={state} fields={[...MEMBER_FIELDS, 'email', 'accept_terms']} />
        <button type="submit" disabled={state.busy}>
          {state.busy ? 'Creating Account…' : 'Create Account'}
        </button>
      </form>
      <p>
        Already a member? <a href="/login">Log In</a>
      </p>
    </section>
  );
}
