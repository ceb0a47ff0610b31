import type { ReactNode } from 'react';

export function Layout({ children }: { children: ReactNode }) {
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <div className="wrap header-row">
          <a className="brand" href="/buy-beer" aria-label="Tala Brewing Co. home">
            <span aria-hidden="true">★</span> Tala Brewing Co.
          </a>
          <nav aria-label="Main">
            <ul className="main-nav">
              <li>
                <a href="/buy-beer">Buy Beer</a>
              </li>
            </ul>
          </nav>
        </div>
      </header>
      <main id="main" className="wrap">
        {children}
      </main>
      <footer className="site-footer">
        <div className="wrap">
          <p>Tala Brewing Co. · Sold only to adults 18 years old and above. Drink responsibly.</p>
          <p>© 2026 Tala Brewing Co. All rights reserved.</p>
        </div>
      </footer>
    </>
  );
}
