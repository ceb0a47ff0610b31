import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect } from 'react';
import { ErrorBoundary } from './components/ErrorBoundary';
import { Layout } from './components/Layout';
import { GateProvider, Gates } from './features/gate';
import { AccountMenu } from './features/accounts';
import { Newsletter } from './features/newsletter';
import { SearchBox } from './features/search';
import { MAINTENANCE, pageOf, type RouteDef } from './lib/route';
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

/** The page's route (client.tsx and the server bundle find it in their route tables; the browser's says `shell` only where it is not the shop's). */
type PageRoute = Pick<RouteDef, 'name' | 'guard' | 'params' | 'load'> & Partial<Pick<RouteDef, 'shell'>>;

/**
 * The app around the page of `route`. It is handed the route rather than importing the route
 * table: the browser has none (the entry finds the page's route in the page's chunk, which names
 * no other page: ui/build.mjs), so the chunk every page shares keeps its name when one page changes.
 */
export function App({
  page: input,
  route,
  gate,
  client,
  onHydrated,
}: {
  page: Omit<Page, 'params'>;
  route: PageRoute;
  gate: Gate;
  client: QueryClient;
  /** Called once the page has hydrated (its passive effects run): the browser's later loads start from there (client.tsx). */
  onHydrated?: () => void;
}) {
  // Loaded before the first render: by client.tsx for this page, by the server bundle for all.
  const body = pageOf(route);
  // The page reads only the query parameters its route declares (usePageParam).
  const page: Page = { ...input, params: route.params };
  useGuard(Boolean(page.member), route.guard);
  // Effects run only in the browser. The `hydrated` performance mark (the bench's slow link reads
  // its time, as a shopper's browser can report it) is set in the commit that hydrates the page:
  // from then on React's listeners at the root handle a tap. `html[data-hydrated]` (what the tests
  // wait for) comes with the passive effects, once the components' own effects have run too.
  useLayoutEffect(() => {
    performance.mark?.('hydrated');
  }, []);
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
    onHydrated?.();
  }, [onHydrated]);
  return (
    <QueryClientProvider client={client}>
      <ErrorBoundary>
        <PageProvider value={page}>
          <GateProvider initial={gate}>
            {route.name === MAINTENANCE && page.status === 503 ? (
              <main id="main" className="wrap">
                {body}
              </main>
            ) : route.shell === 'own' ? (
              // The back office draws its own frame (features/staff/StaffShell.tsx): none of the shop's.
              body
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
