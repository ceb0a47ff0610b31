// The content's pages: home, the store's information and text pages, and the design system's; and
// the maintenance page, which routes.ts puts last in the route table.
import { productsQuery } from '../catalog/queries';
import { MAINTENANCE, route, type FeaturePage, type RouteDef } from '../../lib/route';
import {
  aboutTextQuery,
  bannersQuery,
  deliveryAreasQuery,
  noticeCitiesQuery,
  noticeQuery,
  policyTextQuery,
  retentionTextQuery,
  termsTextQuery,
} from './queries';

export const pages: FeaturePage[] = [
  {
    order: 10,
    route: route(
      'home',
      '/', () => import('./Home').then((m) => m.Home),
      'Beer delivered by the case',
      'Order Tala Brewing Co. beer by the case: bottles, cans and draft-beer kegs delivered or ready for pickup in Metro Manila, Bulacan, Cavite and Rizal.',
      [bannersQuery.template, productsQuery.template, noticeQuery.template, noticeCitiesQuery.template],
      { shop: true, params: ['accountSuccessDelete'] },
    ),
  },
  {
    order: 100,
    route: route(
      'delivery-areas',
      '/delivery-areas', () => import('./DeliveryAreas').then((m) => m.DeliveryAreas),
      'Delivery Areas',
      'The cities and municipalities where Tala Brewing Co. delivers or has orders ready for pickup.',
      [deliveryAreasQuery.template],
    ),
  },
  {
    order: 110,
    route: route('how-to-order', '/how-to-order', () => import('./HowToOrder').then((m) => m.HowToOrder), 'How it Works', 'How to order Tala Brewing Co. beer online, step by step.', []),
  },
  {
    order: 120,
    route: route('faqs', '/faqs', () => import('./Faqs').then((m) => m.Faqs), 'FAQs', 'Answers to common questions about ordering, delivery, deposits and returns.', []),
  },
  {
    order: 130,
    route: route(
      'privacy-policy',
      '/privacy-policy', () => import('./TextPages').then((m) => m.PrivacyPolicy),
      'Privacy and Cookie Policy',
      'How Tala Brewing Co. uses cookies and handles your personal data.',
      [policyTextQuery.template, retentionTextQuery.template],
      { policy: false },
    ),
  },
  {
    order: 140,
    route: route(
      'terms-and-conditions',
      '/terms-and-conditions', () => import('./TextPages').then((m) => m.Terms),
      'Terms and Conditions',
      'The terms that apply to orders from the Tala Brewing Co. online store.',
      [termsTextQuery.template],
      { policy: false },
    ),
  },
  {
    order: 150,
    route: route('about-us', '/about-us', () => import('./TextPages').then((m) => m.AboutUs), 'About Us', 'Tala Brewing Co. is an independent Filipino brewery.', [aboutTextQuery.template]),
  },
  {
    order: 160,
    route: route('contact-us', '/contact-us', () => import('./ContactUs').then((m) => m.ContactUs), 'Contact Us', 'Call, message or email Tala Brewing Co. customer care.', []),
  },
  {
    order: 300,
    route: route('atomic-design', '/atomic-design', () => import('./AtomicDesign').then((m) => m.AtomicDesign), 'Atomic design', 'The building blocks of the store UI.', [], {
      sitemap: false,
      policy: false,
    }),
  },
];

/** What every page shows while the store is under maintenance (and at /maintenance). */
export const maintenanceRoute: RouteDef = route(
  MAINTENANCE,
  '/maintenance', () => import('./Maintenance').then((m) => m.Maintenance),
  "We're Brewing Something For You",
  'The store is being updated and will be back shortly.',
  [],
  { sitemap: false, policy: false },
);
