// The cart's page and the forms that change the cart.
import { calls } from '../../api/contract.gen';
import { gotoCaseOptionsQuery } from '../goto-cases/queries';
import { action, route, type FeaturePage } from '../../lib/route';
import { cartQuery } from './queries';

export const pages: FeaturePage[] = [
  // The cart's forms work without JavaScript as well; after each the cart
  // page says what happened.
  // A member's page also holds their Go-to Cases for the Go-to Case form (a guest's skips them).
  {
    order: 60,
    route: route('cart', '/cart', () => import('./CartPage').then((m) => m.CartPage), 'Shopping Cart', 'Your shopping cart.', [cartQuery.template, gotoCaseOptionsQuery.template], {
      shop: true,
      sitemap: false,
      // The reset question without JavaScript: the category gate over the cart asks it (`reset`);
      // after a refill, what it could not add (`left`).
      params: ['reset', 'left'],
      actions: [
        action(calls.addToCart, '/cart?done=added', { startsSession: true }),
        action(calls.updateCart, '/cart?done=updated', { startsSession: true }),
        action(calls.removeFromCart, '/cart?done=removed', { startsSession: true }),
        action(calls.returnEmpty, '/cart?done=empties', { startsSession: true }),
        action(calls.checkoutVerify, '/checkout'),
        action(calls.keepCart, '/cart?done=kept'),
        // A cart case saved as a Go-to Case goes to it; a Go-to Case or an order back into
        // the cart comes here, naming what could not be added.
        action(calls.createGotoCase, '/my-account/go-to-cases', { answerLink: 'link' }),
        action(calls.gotoCaseToCart, '/cart?done=refilled', { answerLink: 'link' }),
        // Without a location chosen, the order's barangay becomes the shop's (its `place`).
        action(calls.orderAgain, '/cart?done=refilled', { answerLink: 'link', startsSession: true, location: true }),
      ],
    }),
  },
];
