// The route table: one place that says which pages exist, who may see them and which API data
// each needs. The build writes it to dist/routes.json for the server, so server and client never
// disagree on a route. `data` holds the key templates of the features' queries (api/query.ts); the server fills the
// variables from the request (gate cookies, query, path) and runs those API calls in process.

import { productsQuery, promosQuery, whatsNewQuery } from './features/catalog/queries';
import {
  aboutTextQuery,
  bannersQuery,
  deliveryAreasQuery,
  noticeCitiesQuery,
  noticeQuery,
  policyTextQuery,
  termsTextQuery,
} from './features/content/queries';
import { gateQueries } from './features/gates/queries';
import { productQuery } from './features/product/queries';
import { addressesQuery, userQuery } from './features/accounts/queries';

/** What the address forms list: the steps come from the query (`province`, `city`, `barangay`). */
const ADDRESS_STEPS = [
  gateQueries.provinces.template,
  gateQueries.cities.template,
  gateQueries.barangays.template,
  gateQueries.streets.template,
];
/** Account pages: for their visitor only, out of the sitemap and the search index. */
const GUEST = { guard: 'guest', forms: true, sitemap: false, policy: false } as const;
const MEMBER = { guard: 'member', forms: true, sitemap: false } as const;

export type Guard = 'none' | 'member' | 'guest';

export interface RouteDef {
  name: string;
  /** Path pattern; `{name}` matches one path segment. */
  path: string;
  guard: Guard;
  /** Shop pages open the category and location gates until both are chosen. */
  shop: boolean;
  /** Whether the policy modal may show here (not on the policy pages themselves). */
  policy: boolean;
  /** Listed in sitemap.xml. */
  sitemap: boolean;
  /** Holds account forms: rendered for each visitor with the session's CSRF token, never shared. */
  forms: boolean;
  title: string;
  description: string;
  data: string[];
}

/** What the open gate lists: the server loads these for the gate it opens. */
export const GATE_KEYS = Object.fromEntries(Object.entries(gateQueries).map(([name, q]) => [name, q.template])) as Record<
  keyof typeof gateQueries,
  string
>;

const SITE = 'Tala Brewing Co.';

function route(
  name: string,
  path: string,
  title: string,
  description: string,
  data: string[],
  opts: Partial<Pick<RouteDef, 'shop' | 'policy' | 'sitemap' | 'guard' | 'forms'>> = {},
): RouteDef {
  return {
    name,
    path,
    guard: opts.guard ?? 'none',
    shop: opts.shop ?? false,
    policy: opts.policy ?? true,
    sitemap: opts.sitemap ?? true,
    forms: opts.forms ?? false,
    title: `${title} | ${SITE}`,
    description,
    data,
  };
}

export const routes: RouteDef[] = [
  route(
    'home',
    '/',
    'Beer delivered by the case',
    'Order Tala Brewing Co. beer by the case: bottles, cans and draft-beer kegs delivered or ready for pickup in Metro Manila, Bulacan, Cavite and Rizal.',
    [bannersQuery.template, productsQuery.template, noticeQuery.template, noticeCitiesQuery.template],
    { shop: true },
  ),
  route(
    'buy-beer',
    '/buy-beer',
    'Buy Beer',
    'Order Tala Brewing Co. beer by the case: bottles, cans and draft-beer kegs delivered in Metro Manila, Bulacan, Cavite and Rizal.',
    [gateQueries.packagings.template, productsQuery.template],
    { shop: true },
  ),
  route('promos', '/promos', 'Promos', 'Current promotions on Tala Brewing Co. bottles, cans and kegs.', [promosQuery.template], {
    shop: true,
  }),
  route(
    'whats-new',
    '/whats-new',
    "What's New",
    'The newest Tala Brewing Co. beers, seasonal releases and limited cans.',
    [whatsNewQuery.template],
    { shop: true },
  ),
  route('product', '/single-product/{slug}', 'Beer', 'A Tala Brewing Co. beer.', [productQuery.template], {
    shop: true,
    sitemap: false,
  }),
  route(
    'delivery-areas',
    '/delivery-areas',
    'Delivery Areas',
    'The cities and municipalities where Tala Brewing Co. delivers or has orders ready for pickup.',
    [deliveryAreasQuery.template],
  ),
  route('how-to-order', '/how-to-order', 'How it Works', 'How to order Tala Brewing Co. beer online, step by step.', []),
  route('faqs', '/faqs', 'FAQs', 'Answers to common questions about ordering, delivery, deposits and returns.', []),
  route(
    'privacy-policy',
    '/privacy-policy',
    'Privacy and Cookie Policy',
    'How Tala Brewing Co. uses cookies and handles your personal data.',
    [policyTextQuery.template],
    { policy: false },
  ),
  route(
    'terms-and-conditions',
    '/terms-and-conditions',
    'Terms and Conditions',
    'The terms that apply to orders from the Tala Brewing Co. online store.',
    [termsTextQuery.template],
    { policy: false },
  ),
  route('about-us', '/about-us', 'About Us', 'Tala Brewing Co. is an independent Filipino brewery.', [aboutTextQuery.template]),
  route('contact-us', '/contact-us', 'Contact Us', 'Call, message or email Tala Brewing Co. customer care.', []),
  route('splash', '/splash', 'Welcome', 'Tala Brewing Co. sells beer to adults 18 years old and above.', [policyTextQuery.template], {
    sitemap: false,
    policy: false,
  }),
  route('login', '/login', 'Log In', 'Log in to your Tala Brewing Co. account.', [], GUEST),
  route('registration', '/registration', 'Create Account', 'Create a Tala Brewing Co. account.', [], GUEST),
  route('reset-password', '/reset-password', 'Reset Password', 'Choose a new password for your account.', [], {
    forms: true,
    sitemap: false,
    policy: false,
  }),
  route('change-password', '/change-password', 'Change Password', 'Change the password of your account.', [], MEMBER),
  route('my-account', '/my-account', 'My Account', 'Your Tala Brewing Co. account.', [userQuery.template], MEMBER),
  route('orders', '/my-account/orders', 'My Orders', 'Your orders.', [], MEMBER),
  route('go-to-cases', '/my-account/go-to-cases', 'My Go-to Cases', 'Your Go-to Cases.', [], MEMBER),
  route('addresses', '/my-account/addresses', 'My Addresses', 'Your saved addresses.', [addressesQuery.template, ...ADDRESS_STEPS], MEMBER),
  route('delete-account', '/my-account/delete-account', 'Delete Account', 'Delete your account.', [], MEMBER),
  route('setup-address', '/setup-address', 'Your Address', 'Save your delivery address.', ADDRESS_STEPS, MEMBER),
  route('newsletter-confirm', '/newsletter/confirm', 'Newsletter', 'Confirm your newsletter subscription.', [], {
    forms: true,
    sitemap: false,
  }),
  route(
    'maintenance',
    '/maintenance',
    "We're Brewing Something For You",
    'The store is being updated and will be back shortly.',
    [],
    { sitemap: false, policy: false },
  ),
  route('atomic-design', '/atomic-design', 'Atomic design', 'The building blocks of the store UI.', [], {
    sitemap: false,
    policy: false,
  }),
];

export const notFoundRoute: RouteDef = route(
  'not-found',
  '',
  'Page not found',
  'The page you were looking for is not here.',
  [],
  { sitemap: false },
);
