import { calls } from '../../api/contract.gen';
import { FormCall, useAccountForm } from '../../components/form';
import { Links } from '../../components/Links';
import { usePage } from '../../page';
import { ACCOUNT_LINKS } from '../../components/AccountPage';

/**
 * The member's Log Out: a form like every other (then /login); it sends once on a double
 * click (`useAccountForm`'s in-flight flag).
 */
function LogOut() {
  const [state, submit] = useAccountForm();
  return (
    <form method="post" action="/logout" onSubmit={submit}>
      <FormCall call={calls.logout} />
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
