// The page's frame: header, drawers and footer. The cart's and the gate's pieces come through their
// public faces (features/<feature>/index.ts); the account menu, the search box and the newsletter's
// form are handed in by App.tsx.
import { useEffect, useRef, type ReactNode } from 'react';
import { OfflineBar } from './OfflineBar';
import { SendingBar } from './SendingBar';
import { CART_DRAWER_MESSAGE, CART_DRAWER_TITLE, CartDrawerBody, cartLinkLabel, useCartView } from '../features/cart';
import { useGate } from '../features/gate';
import { useHydrated, usePage } from '../page';
import { useWaiting } from '../api/waiting';
import { Drawer, type DrawerRef } from './Drawer';
import { Links } from './Links';
import { LogoMark } from './LogoMark';

/** The header's menus: [address, label]. */
const TOP_LINKS: [string, string][] = [
  ['/how-to-order', 'How it Works'],
  ['/faqs', 'FAQs'],
  ['/contact-us', 'Contact Us'],
];
const MOBILE_MENU: [string, string][] = [
  ['/', 'Home'],
  ['/buy-beer', 'Buy Beers'],
  ['/how-to-order', 'How It Works'],
  ['/whats-new', "What's New"],
  ['/faqs', 'FAQs'],
  ['/contact-us', 'Contact Us'],
];
const MAIN_MENU: [string, string][] = [
  ['/', 'Home'],
  ['/buy-beer', 'Buy Beer'],
  ['/promos', 'Promos'],
  ['/whats-new', "What's New"],
];
const FOOTER_SHOP: [string, string][] = [
  ['/buy-beer', 'Buy Beer'],
  ['/promos', 'Promos'],
  ['/whats-new', "What's New"],
  ['/delivery-areas', 'Delivery Areas'],
];
const FOOTER_HELP: [string, string][] = [
  ['/how-to-order', 'How it Works'],
  ['/faqs', 'FAQs'],
  ['/contact-us', 'Contact Us'],
  ['/about-us', 'About Us'],
  ['/terms-and-conditions', 'Terms and Conditions'],
  ['/privacy-policy', 'Privacy Policy'],
];

/** The footer's link lists: heading id, heading, links. */
const FOOTER_NAVS = [
  ['footer-shop', 'Shop', FOOTER_SHOP],
  ['footer-help', 'Help', FOOTER_HELP],
] as const;

type DrawerName = 'menu' | 'account' | 'cart';

/**
 * Drawers are `<details>` elements, so they open without JavaScript (components/Drawer.tsx; with
 * it each is a modal dialog). Here: opening one closes the others, the body does not scroll behind
 * the open cart drawer, and the cart drawer opens each time a cart call asks.
 */
function useDrawers(opened: number) {
  const menu = useRef<HTMLDetailsElement>(null);
  const account = useRef<HTMLDetailsElement>(null);
  const cart = useRef<HTMLDetailsElement>(null);
  // The cart drawer opens each time a cart call asks (`opened` grows: added to the cart).
  useEffect(() => {
    if (opened > 0 && cart.current) cart.current.open = true;
  }, [opened]);
  useEffect(() => {
    const refs = { menu, account, cart };
    const all = Object.entries(refs) as [DrawerName, DrawerRef][];
    const onToggle = (name: DrawerName) => () => {
      const el = refs[name].current;
      if (el?.open) {
        for (const [other, r] of all) if (other !== name && r.current) r.current.open = false;
      }
      document.body.classList.toggle('no-scroll', !!refs.cart.current?.open);
    };
    const handlers = all.map(([name, r]) => {
      const h = onToggle(name);
      r.current?.addEventListener('toggle', h);
      return () => r.current?.removeEventListener('toggle', h);
    });
    return () => handlers.forEach((off) => off());
  }, []);
  return { menu, account, cart };
}

/** The strip above the header: where the shop is shown for (the location gate's link) and the top links. */
function TopBar() {
  const { gate, open } = useGate();
  const location = gate.barangayName && gate.cityName ? `${gate.barangayName}, ${gate.cityName}` : null;
  return (
    <div className="topbar">
      <div className="wrap topbar-row">
        <span className="location">
          {location ? (
            <>
              {gate.packagingName && <span>{`${gate.packagingName} · `}</span>}
              <span>{location}</span>{' '}
            </>
          ) : null}
          <a
            href="?gate=location"
            onClick={(e) => {
              if (!gate.consent) return;
              e.preventDefault();
              open('location');
            }}
          >
            {location ? 'Change location' : 'Choose your location'}
          </a>
        </span>
        <ul className="toplinks">
          <Links items={TOP_LINKS} />
        </ul>
      </div>
    </div>
  );
}

/** The mobile menu (a drawer on the left). */
function MenuDrawer({ drawer }: { drawer: DrawerRef }) {
  return (
    <Drawer drawer={drawer} className="drawer-left mobile-only" label="Menu" summary="☰" titleId="menu-drawer-title">
      <h2 id="menu-drawer-title" className="visually-hidden">
        Menu
      </h2>
      <nav aria-label="Mobile">
        <ul>
          <Links items={MOBILE_MENU} />
        </ul>
      </nav>
    </Drawer>
  );
}

/** My Account's drawer: the member's name, the account links (`children`) and the legal links. */
function AccountDrawer({ drawer, children }: { drawer: DrawerRef; children: ReactNode }) {
  const { member } = usePage();
  const icon = (
    <>
      <svg aria-hidden="true" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M8 8a4 4 0 1 0 8 0a4 4 0 1 0-8 0M4 21a8 8 0 0 1 16 0" />
      </svg>
      <span className="account-word">{member ? member.firstname : 'My Account'}</span>
    </>
  );
  return (
    // Below 1024 px the words give way to the icon; the label keeps the name.
    <Drawer drawer={drawer} className="drawer-right" label={member ? `My Account, ${member.firstname}` : 'My Account'} summary={icon} titleId="account-drawer-title">
      <h2 className="drawer-title" id="account-drawer-title" tabIndex={-1} data-autofocus>
        {member ? `Hi, ${member.firstname}` : 'My Account'}
      </h2>
      {children}
      <p className="legal-links">
        <a href="/terms-and-conditions">Terms</a> · <a href="/privacy-policy">Privacy</a>
      </p>
    </Drawer>
  );
}

/** What the cart link says of cart changes waiting to be sent. */
function waitingLabel(n: number): string {
  return n === 1 ? '1 change waiting to be sent' : `${n} changes waiting to be sent`;
}

/** The cart link with its count, and the cart drawer. */
function HeaderCart({ drawer, shopping }: { drawer: DrawerRef; shopping: ReturnType<typeof useCartView> }) {
  const { visitor } = usePage();
  // A page rendered once for everyone leaves the shopper's count and drawer to be filled in.
  const slots = visitor?.shared ? visitor.slots : undefined;
  // Cart changes waiting to be sent (api/waiting.ts), after hydration: "2+1".
  const hydrated = useHydrated();
  const allWaiting = useWaiting();
  const waiting = hydrated ? allWaiting.filter((w) => w.kind === 'cart').length : 0;
  const label = slots ? slots.label : cartLinkLabel(shopping.count);
  return (
    <>
      <a className="cart-link" href="/cart" aria-label={waiting > 0 ? `${label}, ${waitingLabel(waiting)}` : label}>
        <svg aria-hidden="true" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M3 4h2l2.4 10.2a1 1 0 0 0 1 .8h8.9a1 1 0 0 0 1-.8L20 8H6.2" />
          <circle cx="9" cy="19" r="1.5" />
          <circle cx="17" cy="19" r="1.5" />
        </svg>
        <span className="cart-count" aria-hidden="true">
          {slots ? slots.count : shopping.count}
          {waiting > 0 && `+${waiting}`}
        </span>
      </a>
      <Drawer
        drawer={drawer}
        className="drawer-right cart-drawer"
        label="Open cart summary"
        summary="▾"
        panelClass="drawer-panel cart-panel"
        titleId={CART_DRAWER_TITLE}
        describedBy={CART_DRAWER_MESSAGE}
      >
        {slots ? slots.drawer : <CartDrawerBody cart={shopping.cart} message={shopping.message} />}
      </Drawer>
    </>
  );
}

/** The footer: the store's address, the link lists, the newsletter's form and the legal lines. */
function Footer({ newsletter }: { newsletter: ReactNode }) {
  return (
    <footer className="site-footer">
      <div className="wrap footer-grid">
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact">Tala Brewing Co.</h2>
          <address>
            12 J.P. Rizal Street, Barangka, Marikina City, Metro Manila
            <br />
            Customer care: <a href="tel:+639171234567">0917 123 4567</a>
            <br />
            <a href="mailto:hello@talabrewing.ph">hello@talabrewing.ph</a>
            <br />
            Open daily, 8:00 AM to 10:00 PM
          </address>
        </section>
        {FOOTER_NAVS.map(([id, title, items]) => (
          <nav key={id} aria-labelledby={id}>
            <h2 id={id}>{title}</h2>
            <ul>
              <Links items={items} />
            </ul>
          </nav>
        ))}
        {newsletter}
      </div>
      <div className="wrap copyright">
        <p>For adults 18 years old and above only. Drink responsibly. Do not drink and drive.</p>
        <p>© 2026 Tala Brewing Co. All rights reserved.</p>
      </div>
    </footer>
  );
}

/**
 * The page around a route's body: header, drawers and footer. Features' pieces come in from App:
 * `account` (the account drawer's links), `search` (the header's search box) and `newsletter`
 * (the footer's form).
 */
export function Layout({ children, account, search, newsletter }: { children: ReactNode; account: ReactNode; search: ReactNode; newsletter: ReactNode }) {
  const shopping = useCartView();
  const drawers = useDrawers(shopping.opened);
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <OfflineBar />
      <header className="site-header">
        <TopBar />
        <div className="wrap header-row">
          <MenuDrawer drawer={drawers.menu} />
          <a className="brand" href="/">
            <LogoMark />
            {' Tala Brewing Co.'}
          </a>
          <nav aria-label="Main" className="desktop-only">
            <ul className="main-nav">
              <Links items={MAIN_MENU} />
            </ul>
          </nav>
          <div className="header-actions">
            <AccountDrawer drawer={drawers.account}>{account}</AccountDrawer>
            <HeaderCart drawer={drawers.cart} shopping={shopping} />
          </div>
        </div>
        <div className="wrap">{search}</div>
      </header>
      <main id="main" className="wrap">
        {children}
      </main>
      <Footer newsletter={newsletter} />
      {/* Fixed at the bottom of the window; after the page, so the first round trip holds <main>. */}
      <SendingBar />
    </>
  );
}
