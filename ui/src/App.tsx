import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Gates } from './components/Gates';
import { Layout } from './components/Layout';
import { GateProvider } from './gate';
import type { Gate } from './lib/render-input';
import { PageProvider, type Page } from './page';
import { AtomicDesign } from './pages/AtomicDesign';
import { BuyBeer } from './pages/BuyBeer';
import { Home } from './pages/Home';
import {
  AboutUs,
  ContactUs,
  DeliveryAreas,
  Faqs,
  HowToOrder,
  Maintenance,
  PrivacyPolicy,
  Terms,
} from './pages/Info';
import { Promos, WhatsNew } from './pages/Lists';
import { NotFound } from './pages/NotFound';
import { Product } from './pages/Product';

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
};

export function App({ page, gate, client }: { page: Page; gate: Gate; client: QueryClient }) {
  const Body = pages[page.route] ?? NotFound;
  // Effects run only in the browser, once the page is interactive (tests wait for this mark).
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <QueryClientProvider client={client}>
      <PageProvider value={page}>
        <GateProvider initial={gate}>
          {page.route === 'maintenance' && page.status === 503 ? (
            <main id="main" className="wrap">
              <Maintenance />
            </main>
          ) : (
            <>
              <Layout>
                <Body />
              </Layout>
              <Gates />
            </>
          )}
        </GateProvider>
      </PageProvider>
    </QueryClientProvider>
  );
}
