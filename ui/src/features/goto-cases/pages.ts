// A member's Go-to Cases.
import { calls } from '../../api/contract.gen';
import { action, MEMBER, route, type FeaturePage } from '../../lib/route';
import { gotoCasesQuery } from './queries';

export const pages: FeaturePage[] = [
  {
    order: 250,
    route: route('go-to-cases', '/my-account/go-to-cases', () => import('./GoToCasesPage').then((m) => m.GoToCasesPage), 'My Go-to Cases', 'Your Go-to Cases.', [gotoCasesQuery.template], {
      ...MEMBER,
      params: ['case'],
      actions: [
        action(calls.updateGotoCase, '/my-account/go-to-cases?done=saved', { answerLink: 'link' }),
        action(calls.removeGotoCaseItems, '/my-account/go-to-cases?done=removed', { answerLink: 'link' }),
        action(calls.deleteGotoCase, '/my-account/go-to-cases?done=deleted'),
      ],
    }),
  },
];
