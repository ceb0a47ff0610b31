// The checkout's page: the order's details and its placing.
import { calls } from '../../api/contract.gen';
import { addressesQuery, userQuery } from '../accounts/queries';
import { cartQuery } from '../cart/queries';
import { action, route, type FeaturePage } from '../../lib/route';
import { placeStreetsQuery } from './queries';

export const pages: FeaturePage[] = [
  {
    order: 70,
    route: route('checkout', '/checkout', () => import('./Checkout').then((m) => m.Checkout), 'Checkout', 'Check out your order.', [cartQuery.template, addressesQuery.template, userQuery.template, placeStreetsQuery.template], {
      shop: true,
      sitemap: false,
      params: ['from'],
      actions: [action(calls.placeOrder, '/my-account/orders', { answerLink: 'link' })],
    }),
  },
];
