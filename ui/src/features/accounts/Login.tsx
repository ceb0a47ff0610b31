import { calls } from '../../api/contract.gen';
import { usePageParam } from '../../page';
import { DoneMessage, Field, FormCall, FormMessage, useAccountForm, useDone } from '../../components/form';

export function Login() {
  const from = usePageParam('from');
  const done = useDone({
    logout: 'You have been logged out.',
    reset: 'Your password has been reset. Log in with the new one.',
  });
  const [state, submit] = useAccountForm();
  return (
    <section className="account-page" aria-labelledby="login-title">
      <h1 id="login-title">Log In</h1>
      <DoneMessage text={done} />
      <form method="post" action="/login" onSubmit={submit} noValidate>
        <FormCall call={calls.login} />
        {(from === 'checkout' || from === 'cart') && <input type="hidden" name="from" value={from} />}
        {/* A failed login shows the server's one message (it never says which part was wrong). */}
        <Field name="login" label="Email or mobile number" autoComplete="username" state={{ ...state, errors: {} }} required />
        <Field name="password" label="Password" type="password" autoComplete="current-password" state={{ ...state, errors: {} }} required />
        <FormMessage state={state} />
        <button type="submit" disabled={state.busy}>
          {state.busy ? 'Logging In…' : 'Log In'}
        </button>
      </form>
      <p>
        <a href="/reset-password">Forgot your password?</a>
      </p>
      <p>
        New to Tala Brewing Co.? <a href="/registration">Create Account</a>
      </p>
    </section>
  );
}
