// The offline page: what the service worker (worker.ts) shows for an address it has no copy of.
import { route, type FeaturePage } from '../../lib/route';

export const pages: FeaturePage[] = [
  {
    order: 175,
    route: route('offline', '/offline', () => import('./OfflinePage').then((m) => m.OfflinePage), 'You are offline', 'What still works without a connection.', [], {
      sitemap: false,
      noindex: true,
      // Fetched as nobody (no consent cookie): the policy modal must not cover it.
      policy: false,
    }),
  },
];
