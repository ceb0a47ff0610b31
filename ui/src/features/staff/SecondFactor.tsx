import { useQuery } from '@tanstack/react-query';
import { calls, type Enrollment, type QrCode } from '../../api/contract.gen';
import { QueryState } from '../../components/QueryState';
import { Field, FormCall, FormMessage, useAccountForm } from '../../components/form';
import { enrollmentQuery } from './queries';
import { StaffShell } from './StaffShell';

/** The QR code of the authenticator app's key, drawn from the server's squares (a quiet zone of 4). */
function Qr({ qr }: { qr: QrCode }) {
  const side = qr.size + 8;
  return (
    <svg viewBox={`-4 -4 ${side} ${side}`} width={side * 5} height={side * 5} role="img" aria-label="QR code of your account's key for an authenticator app" shapeRendering="crispEdges">
      <rect x={-4} y={-4} width={side} height={side} fill="#fff" />
      <path d={qr.path} fill="#000" />
    </svg>
  );
}

function SetUp({ enrollment }: { enrollment: Enrollment }) {
  return (
    <>
      <p>Your staff account needs a second factor: a 6-digit code from an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 2FAS or any TOTP app).</p>
      <ol>
        <li>
          <p>In the app, add an account and scan this code:</p>
          <Qr qr={enrollment.qr} />
          <p>
            Cannot scan? Type this key instead: <code>{enrollment.secret}</code>
          </p>
        </li>
        <li>
          <p>Keep these recovery codes somewhere safe (each works once, instead of a code, if you lose your phone). They are not shown again.</p>
          <ul aria-label="Recovery codes">
            {enrollment.recovery_codes.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
        </li>
        <li>Enter the code the app shows now.</li>
      </ol>
    </>
  );
}

/** After the password: set up the second factor (the first sign-in) or give its code. */
export function SecondFactor() {
  const state = useQuery(enrollmentQuery.options());
  const [form, submit] = useAccountForm();
  return (
    <StaffShell section="/staff/second-factor" here="/staff/second-factor">
      <section className="account-page" aria-labelledby="second-factor-title">
        <h1 id="second-factor-title">Second Factor</h1>
        <QueryState query={state} loading="Loading…" error="We could not load this step. Please reload the page." retry>
          {(s) => (
            <>
              {s.enrollment ? <SetUp enrollment={s.enrollment} /> : <p>Enter the 6-digit code your authenticator app shows, or one of your recovery codes.</p>}
              <form method="post" action="/staff/second-factor" onSubmit={submit} noValidate>
                <FormCall call={calls.staffSecondFactor} />
                <Field name="code" label="Code from your app (or a recovery code)" autoComplete="one-time-code" inputMode="numeric" state={form} required />
                <FormMessage state={form} fields={['code']} />
                <button type="submit" disabled={form.busy}>
                  {form.busy ? 'Checking…' : 'Continue'}
                </button>
              </form>
            </>
          )}
        </QueryState>
        <p>
          <a href="/staff/login">Sign in again</a>
        </p>
      </section>
    </StaffShell>
  );
}
