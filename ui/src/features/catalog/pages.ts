// The catalog's pages: the shop's product lists.
import { gateQueries } from '../gate/queries';
import { route, type FeaturePage } from '../../lib/route';
import { LIST_PARAMS } from './list';
import { productsQuery, promosQuery, whatsNewQuery } from './queries';

export const pages: FeaturePage[] = [
  {
    order: 20,
    route: route(
      'buy-beer',
      '/buy-beer', () => import('./BuyBeer').then((m) => m.BuyBeer),
      'Buy Beer',
      'Order Tala Brewing Co. beer by the case: bottles, cans and draft-beer kegs delivered in Metro Manila, Bulacan, Cavite and Rizal.',
      [gateQueries.packagings.template, productsQuery.template],
      // The list's sort, filters and page are in its address: a crawler and a shared link see the
      // same page, and each page of a list is its own canonical page.
      { shop: true, params: [...LIST_PARAMS], canonical: [...LIST_PARAMS] },
    ),
  },
  {
    order: 30,
    route: route('promos', '/promos', () => import('./Lists').then((m) => m.Promos), 'Promos', 'Current promotions on Tala Brewing Co. bottles, cans and kegs.', [promosQuery.template], {
      shop: true,
    }),
  },
  {
    order: 40,
    route: route(
      'whats-new',
      '/whats-new', () => import('./Lists').then((m) => m.WhatsNew),
      "What's New",
      'The newest Tala Brewing Co. beers, seasonal releases and limited cans.',
      [whatsNewQuery.template],
      { shop: true },
    ),
  },
];
