import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ErrorBoundary } from './components/ErrorBoundary';
import { Layout } from './components/Layout';
import { Gates } from './features/gates/Gates';
import { GateProvider } from './lib/gate';
import { AccountMenu } from './features/accounts/AccountMenu';
import { Newsletter } from './features/newsletter/Newsletter';
import { SearchBox } from './features/search/SearchBox';
import { maintenanceRoute, pageOf, routeNamed } from './routes';
import type { Gate } from './lib/render-input';
import { PageProvider, type Page } from './page';

/**
 * The route guards in the browser (the server already answered them with redirects; a page brought
 * back from the browser's history after logging in or out is sent on the same way).
 */
function useGuard(member: boolean, guard: string) {
  useEffect(() => {
    if (guard === 'member' && !member) window.location.replace('/login');
    if (guard === 'guest' && member) window.location.replace('/');
  }, [member, guard]);
}

export function App({ page: input, gate, client }: { page: Omit<Page, 'params'>; gate: Gate; client: QueryClient }) {
  const route = routeNamed(input.route);
  // Loaded before the first render: by client.tsx for this page, by the server bundle for all.
  const body = pageOf(route);
  // The page reads only the query parameters its route declares (usePageParam).
  const page: Page = { ...input, params: route.params };
  useGuard(Boolean(page.member), route.guard);
  // Effects run only in the browser, once the page is interactive (tests wait for this mark; the
  // bench's slow link reads the performance mark's time, as a shopper's browser can report it).
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
    performance.mark?.('hydrated');
  }, []);
  return (
    <QueryClientProvider client={client}>
      <ErrorBoundary>
        <PageProvider value={page}>
          <GateProvider initial={gate}>
            {page.route === maintenanceRoute.name && page.status === 503 ? (
              <main id="main" className="wrap">
                {body}
              </main>
            ) : (
              <>
                <Layout account={<AccountMenu />} newsletter={<Newsletter />} search={<SearchBox />}>
                  {body}
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
