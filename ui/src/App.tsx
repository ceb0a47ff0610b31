import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ErrorBoundary } from './components/ErrorBoundary';
import { Layout } from './components/Layout';
import { BuyBeer } from './features/catalog/BuyBeer';
import { Promos, WhatsNew } from './features/catalog/Lists';
import { AtomicDesign } from './features/content/AtomicDesign';
import { Home } from './features/content/Home';
import { ContactUs } from './features/content/ContactUs';
import { DeliveryAreas } from './features/content/DeliveryAreas';
import { Faqs } from './features/content/Faqs';
import { HowToOrder } from './features/content/HowToOrder';
import { Maintenance } from './features/content/Maintenance';
import { AboutUs, PrivacyPolicy, Terms } from './features/content/TextPages';
import { NotFound } from './features/content/NotFound';
import { Gates } from './features/gates/Gates';
import { GateProvider } from './lib/gate';
import { Product } from './features/product/Product';
import { AccountMenu } from './features/accounts/AccountMenu';
import { Addresses, SetupAddress } from './features/accounts/Addresses';
import { Login } from './features/accounts/Login';
import { DeleteAccount, GoToCases, MyAccount, Orders } from './features/accounts/MyAccount';
import { ChangePassword, ResetPassword } from './features/accounts/Passwords';
import { Registration } from './features/accounts/Registration';
import { Splash } from './features/gates/Splash';
import { ConfirmNewsletter } from './features/newsletter/Confirm';
import { Newsletter } from './features/newsletter/Newsletter';
import { routes } from './routes';
import type { Gate } from './lib/render-input';
import { PageProvider, type Page } from './page';

const pages: Record<string, () => React.JSX.Element> = {
  home: Home,
  'buy-beer': BuyBeer,
  promos: Promos,
  'whats-new': WhatsNew,
  product: Product,
  'delivery-areas': DeliveryAreas,
  'how-to-order': HowToOrder,
  faqs: Faqs,
  'privacy-policy': PrivacyPolicy,
  'terms-and-conditions': Terms,
  'about-us': AboutUs,
  'contact-us': ContactUs,
  maintenance: Maintenance,
  'atomic-design': AtomicDesign,
  splash: Splash,
  login: Login,
  registration: Registration,
  'reset-password': ResetPassword,
  'change-password': ChangePassword,
  'my-account': MyAccount,
  orders: Orders,
  'go-to-cases': GoToCases,
  addresses: Addresses,
  'delete-account': DeleteAccount,
  'setup-address': SetupAddress,
  'newsletter-confirm': ConfirmNewsletter,
};

/**
 * The route guards in the browser (the server already answered them with redirects; a page brought
 * back from the browser's history after logging in or out is sent on the same way).
 */
function useGuard(page: Page) {
  useEffect(() => {
    const guard = routes.find((r) => r.name === page.route)?.guard;
    if (guard === 'member' && !page.member) window.location.replace('/login');
    if (guard === 'guest' && page.member) window.location.replace('/');
  }, [page]);
}

export function App({ page, gate, client }: { page: Page; gate: Gate; client: QueryClient }) {
  const Body = pages[page.route] ?? NotFound;
  useGuard(page);
  // Effects run only in the browser, once the page is interactive (tests wait for this mark).
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <QueryClientProvider client={client}>
      <ErrorBoundary>
        <PageProvider value={page}>
          <GateProvider initial={gate}>
            {page.route === 'maintenance' && page.status === 503 ? (
              <main id="main" className="wrap">
                <Maintenance />
              </main>
            ) : (
              <>
                <Layout account={<AccountMenu />} newsletter={<Newsletter />}>
                  <Body />
                </Layout>
                <Gates />
              </>
            )}
          </GateProvider>
        </PageProvider>
      </ErrorBoundary>
    </QueryClientProvider>
  );
}
