// The product's page, and the product list's address without a slug.
import { route, type FeaturePage } from '../../lib/route';
import { productQuery } from './queries';

export const pages: FeaturePage[] = [
  // An unknown product goes back to the product list; the list's address without a slug, home.
  {
    order: 50,
    route: route('product', '/single-product/{slug}', () => import('./Product').then((m) => m.Product), 'Beer', 'A Tala Brewing Co. beer.', [productQuery.template], {
      shop: true,
      sitemap: false,
      missing: '/buy-beer',
    }),
  },
  // Only ever sent on: the not-found page stands in for its page.
  {
    order: 90,
    route: route('product-without-slug', '/single-product', () => import('../../components/NotFound').then((m) => m.NotFound), 'Beer', 'A Tala Brewing Co. beer.', [], {
      sitemap: false,
      redirect: '/',
    }),
  },
];
