// The frame of a signed-in visitor's pages: the frame's links beside the page's section. A member's
// (the accounts and orders features) and the back office's (the staff feature) share it.
import type { ReactNode } from 'react';

/** The account's sub-pages (the account drawer's links, with the password and deletion pages). */
export const ACCOUNT_LINKS: [string, string][] = [
  ['/my-account', 'My Account'],
  ['/my-account/orders', 'My Orders'],
  ['/my-account/go-to-cases', 'My Go-to Cases'],
  ['/my-account/addresses', 'My Addresses'],
];

/** A frame of pages: its links (`[href, label]`, the current one marked) and what follows them. */
export function SideNav({ label, links, current, children }: { label: string; links: [string, string][]; current: string; children?: ReactNode }) {
  return (
    <nav className="account-nav" aria-label={label}>
      <ul>
        {links.map(([href, text]) => (
          <li key={href}>
            <a href={href} aria-current={href === current ? 'page' : undefined}>
              {text}
            </a>
          </li>
        ))}
      </ul>
      {children}
    </nav>
  );
}

/** A page of a frame: the frame's links (`nav`) beside the page's section, titled `title` (`{id}-title`). */
export function FramedPage({ nav, id, title, children }: { nav: ReactNode; id: string; title: string; children: ReactNode }) {
  return (
    <div className="account-layout">
      {nav}
      <section className="account-page" aria-labelledby={`${id}-title`}>
        <h1 id={`${id}-title`}>{title}</h1>
        {children}
      </section>
    </div>
  );
}

export function AccountNav({ current }: { current: string }) {
  const links: [string, string][] = [...ACCOUNT_LINKS, ['/change-password', 'Change Password'], ['/my-account/my-data', 'Download My Data'], ['/my-account/delete-account', 'Delete Account']];
  return <SideNav label="My account" links={links} current={current} />;
}

/** A member's page: the account's links beside the page's section, titled `title` (`{id}-title`). */
export function AccountPage({ current, id, title, children }: { current: string; id: string; title: string; children: ReactNode }) {
  return (
    <FramedPage nav={<AccountNav current={current} />} id={id} title={title}>
      {children}
    </FramedPage>
  );
}
