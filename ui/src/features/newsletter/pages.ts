// The newsletter's confirmation page (its double opt-in link).
import { calls } from '../../api/contract.gen';
import { action, route, type FeaturePage } from '../../lib/route';

export const pages: FeaturePage[] = [
  {
    order: 290,
    route: route('newsletter-confirm', '/newsletter/confirm', () => import('./Confirm').then((m) => m.ConfirmNewsletter), 'Newsletter', 'Confirm your newsletter subscription.', [], {
      params: ['token'],
      actions: [action(calls.confirmSubscription, '/newsletter/confirm?done=confirmed')],
      sitemap: false,
    }),
  },
];
