// The frame of a signed-in visitor's pages: the frame's links beside the page's section. A member's
// (features/accounts/AccountPage.tsx) and the back office's (features/staff/StaffPage.tsx) share it.
import type { ReactNode } from 'react';

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
