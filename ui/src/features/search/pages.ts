// Search: the catalog found by a shopper's words (the header's search box posts here).
import { route, type FeaturePage } from '../../lib/route';
import { searchQuery } from './queries';

export const pages: FeaturePage[] = [
  {
    order: 45,
    route: route(
      'search',
      '/search', () => import('./SearchPage').then((m) => m.SearchPage),
      'Search',
      'Find Tala Brewing Co. beers by name, brewery, style, packaging or size.',
      [searchQuery.template],
      // A page of results for each query: kept out of search engines' indexes and the sitemap.
      { shop: true, params: ['q'], noindex: true, sitemap: false },
    ),
  },
];
