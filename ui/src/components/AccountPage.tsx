// The frame of a member's pages: the account's links beside the page's section. Shared by the accounts
// and orders features (moved here from features/accounts/AccountNav.tsx).
import type { ReactNode } from 'react';

/** The account's sub-pages (the account drawer's links, with the password and deletion pages). */
export const ACCOUNT_LINKS: [string, string][] = [
  ['/my-account', 'My Account'],
  ['/my-account/orders', 'My Orders'],
  ['/my-account/go-to-cases', 'My Go-to Cases'],
  ['/my-account/addresses', 'My Addresses'],
];

export function AccountNav({ current }: { current: string }) {
  const links: [string, string][] = [...ACCOUNT_LINKS, ['/change-password', 'Change Password'], ['/my-account/delete-account', 'Delete Account']];
  return (
    <nav className="account-nav" aria-label="My account">
      <ul>
        {links.map(([href, label]) => (
          <li key={href}>
            <a href={href} aria-current={href === current ? 'page' : undefined}>
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A member's page: the account's links beside the page's section, titled `title` (`{id}-title`). */
export function AccountPage({ current, id, title, children }: { current: string; id: string; title: string; children: ReactNode }) {
  return (
    <div className="account-layout">
      <AccountNav current={current} />
      <section className="account-page" aria-labelledby={`${id}-title`}>
        <h1 id={`${id}-title`}>{title}</h1>
        {children}
      </section>
    </div>
  );
}
