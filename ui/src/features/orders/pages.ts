// The orders' pages: one order, and a member's list.
import { MEMBER, route, type FeaturePage } from '../../lib/route';
import { myOrdersQuery, orderQuery } from './queries';

export const pages: FeaturePage[] = [
  // A guest reaches an order by the key of its link; anyone else gets the page of an unknown order.
  {
    order: 80,
    route: route('active-order', '/active-order/{id}', () => import('./ActiveOrder').then((m) => m.ActiveOrder), 'Your Order', 'Your order.', [orderQuery.template], {
      sitemap: false,
      accountStyles: true,
      params: ['key'],
    }),
  },
  {
    order: 240,
    route: route('orders', '/my-account/orders', () => import('./MyOrders').then((m) => m.MyOrders), 'My Orders', 'Your orders.', [myOrdersQuery.template], { ...MEMBER, params: ['page'] }),
  },
];
