import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Layout } from './components/Layout';
import { BuyBeer } from './pages/BuyBeer';
import { NotFound } from './pages/NotFound';
import { PageProvider, type Page } from './page';

const pages: Record<string, () => React.JSX.Element> = {
  'buy-beer': BuyBeer,
};

export function App({ page, client }: { page: Page; client: QueryClient }) {
  const Body = pages[page.route] ?? NotFound;
  // Effects run only in the browser, once the page is interactive (tests wait for this mark).
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <QueryClientProvider client={client}>
      <PageProvider value={page}>
        <Layout>
          <Body />
        </Layout>
      </PageProvider>
    </QueryClientProvider>
  );
}
