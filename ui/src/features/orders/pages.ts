// The orders' pages: placing one (the checkout, place/), one order, and a member's list.
import { calls } from '../../api/contract.gen';
import { addressesQuery, userQuery } from '../accounts/queries';
import { cartQuery } from '../cart/queries';
import { action, MEMBER, route, type FeaturePage } from '../../lib/route';
import { myOrdersQuery, orderQuery } from './queries';
import { paymentMethodsQuery, placeStreetsQuery } from './place/queries';

export const pages: FeaturePage[] = [
  // The checkout: the order's details and its placing (the API's orders/place).
  {
    order: 70,
    route: route('checkout', '/checkout', () => import('./place/Checkout').then((m) => m.Checkout), 'Checkout', 'Check out your order.', [cartQuery.template, addressesQuery.template, userQuery.template, placeStreetsQuery.template, paymentMethodsQuery.template], {
      shop: true,
      sitemap: false,
      params: ['from'],
      actions: [action(calls.placeOrder, '/my-account/orders', { answerAway: 'pay_url', answerLink: 'link' })],
    }),
  },
  // A guest reaches an order by the key of its link; anyone else gets the page of an unknown order.
  {
    order: 80,
    route: route('active-order', '/active-order/{id}', () => import('./ActiveOrder').then((m) => m.ActiveOrder), 'Your Order', 'Your order.', [orderQuery.template, paymentMethodsQuery.template], {
      sitemap: false,
      accountStyles: true,
      params: ['key', 'notice'],
      // An order awaiting its payment: Pay Now goes to its payment page; Pay in Cash places it.
      actions: [
        action(calls.payOrder, '/active-order/{orderId}', { answerAway: 'pay_url', answerLink: 'link', startsSession: true }),
        action(calls.payInCash, '/active-order/{orderId}', { answerLink: 'link', startsSession: true }),
      ],
    }),
  },
  {
    order: 240,
    route: route('orders', '/my-account/orders', () => import('./MyOrders').then((m) => m.MyOrders), 'My Orders', 'Your orders.', [myOrdersQuery.template], { ...MEMBER, params: ['page'] }),
  },
];
