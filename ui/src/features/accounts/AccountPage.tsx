// A member's pages: the account's links beside the page's section, in the frame the back office
// shares (components/FramedPage.tsx). The accounts, orders and Go-to Cases features' pages use it.
import type { ReactNode } from 'react';
import { FramedPage, SideNav } from '../../components/FramedPage';

/** The account's sub-pages (the account drawer's links, with the password and deletion pages). */
export const ACCOUNT_LINKS: [string, string][] = [
  ['/my-account', 'My Account'],
  ['/my-account/orders', 'My Orders'],
  ['/my-account/go-to-cases', 'My Go-to Cases'],
  ['/my-account/addresses', 'My Addresses'],
];

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
