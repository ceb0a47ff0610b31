import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Layout } from './components/Layout';
import { BuyBeer } from './pages/BuyBeer';
import { NotFound } from './pages/NotFound';
import { PageProvider, type Page } from './page';

const pages: Record<string, () => React.JSX.Element> = {
  'buy-beer': BuyBeer,
};

export function App({ page, client }: { page: Page; client: QueryClient }) {
  const Body = pages[page.route] ?? NotFound;
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
