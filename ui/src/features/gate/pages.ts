// The entry gate as a page of its own.
import { policyTextQuery } from '../content/queries';
import { route, type FeaturePage } from '../../lib/route';

export const pages: FeaturePage[] = [
  {
    order: 170,
    route: route('splash', '/splash', () => import('./Splash').then((m) => m.Splash), 'Welcome', 'Tala Brewing Co. sells beer to adults 18 years old and above.', [policyTextQuery.template], {
      sitemap: false,
      policy: false,
    }),
  },
];
