import { calls } from '../../api/contract.gen';
import { Csrf, useAccountForm } from '../../components/form';
import { Links } from '../../components/Layout';
import { usePage } from '../../page';
import { ACCOUNT_LINKS } from './AccountNav';

/**
 * The member's Log Out: a form post without JS; with it, the API call, then /login (SPEC 6). Like
 * every account form it sends once on a double click (`useAccountForm`'s in-flight flag).
 */
function LogOut() {
  const toLogin = () => window.location.assign('/login?done=logout');
  const [state, submit] = useAccountForm(calls.logout, () => ({ onSignedOut: toLogin }), toLogin);
  return (
    <form method="post" action="/logout" onSubmit={submit}>
      <Csrf />
      <button type="submit" className="secondary" disabled={state.busy}>
        Log Out
      </button>
    </form>
  );
}

/** The account drawer's links: a member's pages and Log Out, or Log In and Create Account. */
export function AccountMenu() {
  const { member } = usePage();
  return member ? (
    <>
      <ul>
        <Links items={ACCOUNT_LINKS} />
      </ul>
      <LogOut />
    </>
  ) : (
    <ul>
      <li>
        <a className="button" href="/login">
          Log In
        </a>
      </li>
      <li>
        <a className="button secondary" href="/registration">
          Create Account
        </a>
      </li>
    </ul>
  );
}
