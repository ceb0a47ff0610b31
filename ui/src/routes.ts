// The route table: one declaration per page, read by the server and the client alike. A route
// names its path, its guard, the query parameters it reads, its data (the key templates of the
// features' queries, which the server fills from the request and runs in process) and how its
// component loads (a dynamic import: in the browser each page is a chunk of its own, fetched with
// the page; the server bundle holds them all). The build writes everything but the loader to
// dist/routes.json for the server, and to dist/manifest.json each route's chunks (the page
// preloads them), so server and client never disagree on a route.

import { createElement, type ComponentType, type ReactElement } from 'react';
import { calls, type Call } from './api/contract.gen';
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
import { gotoCaseOptionsQuery, gotoCasesQuery } from './features/goto-cases/queries';
import { addressesQuery, pendingRegistrationQuery, userQuery } from './features/accounts/queries';
import { cartQuery } from './features/cart/queries';
import { placeStreetsQuery } from './features/checkout/queries';
import { myOrdersQuery, orderQuery } from './features/orders/queries';

/** What the address forms list: the steps come from the query (`province`, `city`, `barangay`). */
const ADDRESS_STEPS = [
  gateQueries.provinces.template,
  gateQueries.cities.template,
  gateQueries.barangays.template,
  gateQueries.streets.template,
];
/**
 * The query parameters every page reads: the footer's newsletter message, the gates and their
 * no-JS steps, and the test date. Others (`utm_source`, `fbclid`, a cache buster) do not change a
 * page, so they neither reach its render nor split the cache.
 */
const EVERY_PAGE = ['newsletter', 'gate', 'fulfillment', 'province', 'city', 'barangay', 'testdate'];
/** What a page with forms reads: the message after a form (`done`). */
const FORM_PAGE = ['done'];
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
  /** Links the account pages' stylesheet though the page has no forms (an order's page). */
  accountStyles: boolean;
  title: string;
  description: string;
  data: string[];
  /** The query parameters the page reads (`usePageParam` refuses any other). */
  params: string[];
  /** Of those, the ones its canonical address keeps. */
  canonical: string[];
  /** Where to send the browser when the page's own data does not exist (an unknown product). */
  missing: string | null;
  /** The address is only ever sent on (302) to this one. */
  redirect: string | null;
  /** The API calls the page's forms run when posted to its address (`<FormCall call={...}>`). */
  actions: Action[];
  /**
   * Loads what the page shows: `() => import('./features/x/Page').then((m) => m.Page)`, the
   * page's only mention (the client's; not in routes.json). The browser loads the current page's
   * before it hydrates, the server bundle every page before its first render (`loadPage`).
   */
  load: PageLoader;
}

export type PageLoader = () => Promise<ComponentType>;

/**
 * A page form that runs an API call: the form posts its fields to the page's address with the
 * call's name (`_call`); the server parses them into the call's own path and body types, runs it,
 * and sends the browser to `done` (or answers the form again with its messages).
 */
export interface Action {
  call: string;
  /** Where the browser goes once the call succeeded. */
  done: string;
  /** Where it goes instead, by the value of one field. */
  doneBy?: { field: string; to: Record<string, string> };
  /** What the form says of a failure other than field errors or a rate limit. */
  fallback?: string;
  /** Fields that must be sent, with what the form says when one is not (a confirmation box). */
  required?: Record<string, string>;
  /** The field that carries the registration link's token (the call's `registration-token`). */
  linkToken?: string;
  /** The answer is an address that becomes the shop's location (the gate's cookies). */
  location?: boolean;
  /** Where the browser goes is a field of the answer (a placed order's `link`), not `done`. */
  answerLink?: string;
  /** Without a live session the post starts a guest's (the cart's forms on shared pages). */
  startsSession?: boolean;
}

function action(call: Call<unknown>, done: string, more: Omit<Action, 'call' | 'done'> = {}): Action {
  return { call: call.name, done, ...more };
}

/** SPEC 8's words for a registration that failed for another reason than its fields or its link. */
const REGISTRATION_FAILED = 'Something went wrong creating your account. Please try again.';

/**
 * What the open gate lists: the server loads these for the gate it opens (`savedAddresses`: a
 * member's location gate offers their saved addresses, SPEC 4).
 */
export const GATE_KEYS = {
  ...(Object.fromEntries(Object.entries(gateQueries).map(([name, q]) => [name, q.template])) as Record<keyof typeof gateQueries, string>),
  savedAddresses: addressesQuery.template,
};

const SITE = 'Tala Brewing Co.';

type Options = Partial<Pick<RouteDef, 'shop' | 'policy' | 'sitemap' | 'guard' | 'forms' | 'accountStyles' | 'canonical' | 'missing' | 'redirect' | 'actions'>> & {
  /** Query parameters the page reads besides every page's (and `done` on pages with forms). */
  params?: string[];
};

function route(
  name: string,
  path: string,
  load: PageLoader,
  title: string,
  description: string,
  data: string[],
  opts: Options = {},
): RouteDef {
  const actions = opts.actions ?? [];
  const forms = opts.forms ?? actions.length > 0;
  return {
    name,
    path,
    guard: opts.guard ?? 'none',
    shop: opts.shop ?? false,
    policy: opts.policy ?? true,
    sitemap: opts.sitemap ?? true,
    forms,
    accountStyles: opts.accountStyles ?? false,
    title: `${title} | ${SITE}`,
    description,
    data,
    params: [...EVERY_PAGE, ...(forms ? FORM_PAGE : []), ...(opts.params ?? [])],
    canonical: opts.canonical ?? [],
    missing: opts.missing ?? null,
    redirect: opts.redirect ?? null,
    actions,
    load,
  };
}

const loaded = new Map<RouteDef, ComponentType>();

/** Loads a route's page (its chunk, in the browser) once; `pageOf` has it from then on. */
export async function loadPage(route: RouteDef): Promise<ComponentType> {
  let page = loaded.get(route);
  if (!page) {
    page = await route.load();
    loaded.set(route, page);
  }
  return page;
}

/** The page of a route whose component is loaded (renders are synchronous: no suspense). */
export function pageOf(route: RouteDef): ReactElement {
  const page = loaded.get(route);
  if (!page) throw new Error(`the page of route ${route.name} is rendered before it was loaded`);
  return createElement(page);
}

export const routes: RouteDef[] = [
  route(
    'home',
    '/', () => import('./features/content/Home').then((m) => m.Home),
    'Beer delivered by the case',
    'Order Tala Brewing Co. beer by the case: bottles, cans and draft-beer kegs delivered or ready for pickup in Metro Manila, Bulacan, Cavite and Rizal.',
    [bannersQuery.template, productsQuery.template, noticeQuery.template, noticeCitiesQuery.template],
    { shop: true, params: ['accountSuccessDelete'] },
  ),
  route(
    'buy-beer',
    '/buy-beer', () => import('./features/catalog/BuyBeer').then((m) => m.BuyBeer),
    'Buy Beer',
    'Order Tala Brewing Co. beer by the case: bottles, cans and draft-beer kegs delivered in Metro Manila, Bulacan, Cavite and Rizal.',
    [gateQueries.packagings.template, productsQuery.template],
    { shop: true, params: ['filterByType'], canonical: ['filterByType'] },
  ),
  route('promos', '/promos', () => import('./features/catalog/Lists').then((m) => m.Promos), 'Promos', 'Current promotions on Tala Brewing Co. bottles, cans and kegs.', [promosQuery.template], {
    shop: true,
  }),
  route(
    'whats-new',
    '/whats-new', () => import('./features/catalog/Lists').then((m) => m.WhatsNew),
    "What's New",
    'The newest Tala Brewing Co. beers, seasonal releases and limited cans.',
    [whatsNewQuery.template],
    { shop: true },
  ),
  // SPEC 2: an unknown product goes back to the product list; the list's address without a slug, home.
  route('product', '/single-product/{slug}', () => import('./features/product/Product').then((m) => m.Product), 'Beer', 'A Tala Brewing Co. beer.', [productQuery.template], {
    shop: true,
    sitemap: false,
    missing: '/buy-beer',
  }),
  // The cart's forms work without JavaScript as well (issue 15 section 7); after each the cart
  // page says what happened.
  // A member's page also holds their Go-to Cases for the Go-to Case form (a guest's skips them).
  route('cart', '/cart', () => import('./features/cart/CartPage').then((m) => m.CartPage), 'Shopping Cart', 'Your shopping cart.', [cartQuery.template, gotoCaseOptionsQuery.template], {
    shop: true,
    sitemap: false,
    // SPEC 4's reset question without JavaScript: the category gate over the cart asks it (`reset`);
    // after a refill, what it could not add (`left`).
    params: ['reset', 'left'],
    actions: [
      action(calls.addToCart, '/cart?done=added', { startsSession: true }),
      action(calls.updateCart, '/cart?done=updated', { startsSession: true }),
      action(calls.removeFromCart, '/cart?done=removed', { startsSession: true }),
      action(calls.returnEmpty, '/cart?done=empties', { startsSession: true }),
      action(calls.checkoutVerify, '/checkout'),
      action(calls.keepCart, '/cart?done=kept'),
      // Issue 16: a cart case saved as a Go-to Case goes to it; a Go-to Case or an order back into
      // the cart comes here, naming what could not be added.
      action(calls.createGotoCase, '/my-account/go-to-cases', { answerLink: 'link' }),
      action(calls.gotoCaseToCart, '/cart?done=refilled', { answerLink: 'link' }),
      // Without a location chosen, the order's barangay becomes the shop's (its `place`).
      action(calls.orderAgain, '/cart?done=refilled', { answerLink: 'link', startsSession: true, location: true }),
    ],
  }),
  route('checkout', '/checkout', () => import('./features/checkout/Checkout').then((m) => m.Checkout), 'Checkout', 'Check out your order.', [cartQuery.template, addressesQuery.template, userQuery.template, placeStreetsQuery.template], {
    shop: true,
    sitemap: false,
    params: ['from'],
    actions: [action(calls.placeOrder, '/my-account/orders', { answerLink: 'link' })],
  }),
  // A guest reaches an order by the key of its link; anyone else gets the page of an unknown order.
  route('active-order', '/active-order/{id}', () => import('./features/orders/ActiveOrder').then((m) => m.ActiveOrder), 'Your Order', 'Your order.', [orderQuery.template], {
    sitemap: false,
    accountStyles: true,
    params: ['key'],
  }),
  route('product-without-slug', '/single-product', () => import('./features/content/NotFound').then((m) => m.NotFound), 'Beer', 'A Tala Brewing Co. beer.', [], { sitemap: false, redirect: '/' }),
  route(
    'delivery-areas',
    '/delivery-areas', () => import('./features/content/DeliveryAreas').then((m) => m.DeliveryAreas),
    'Delivery Areas',
    'The cities and municipalities where Tala Brewing Co. delivers or has orders ready for pickup.',
    [deliveryAreasQuery.template],
  ),
  route('how-to-order', '/how-to-order', () => import('./features/content/HowToOrder').then((m) => m.HowToOrder), 'How it Works', 'How to order Tala Brewing Co. beer online, step by step.', []),
  route('faqs', '/faqs', () => import('./features/content/Faqs').then((m) => m.Faqs), 'FAQs', 'Answers to common questions about ordering, delivery, deposits and returns.', []),
  route(
    'privacy-policy',
    '/privacy-policy', () => import('./features/content/TextPages').then((m) => m.PrivacyPolicy),
    'Privacy and Cookie Policy',
    'How Tala Brewing Co. uses cookies and handles your personal data.',
    [policyTextQuery.template],
    { policy: false },
  ),
  route(
    'terms-and-conditions',
    '/terms-and-conditions', () => import('./features/content/TextPages').then((m) => m.Terms),
    'Terms and Conditions',
    'The terms that apply to orders from the Tala Brewing Co. online store.',
    [termsTextQuery.template],
    { policy: false },
  ),
  route('about-us', '/about-us', () => import('./features/content/TextPages').then((m) => m.AboutUs), 'About Us', 'Tala Brewing Co. is an independent Filipino brewery.', [aboutTextQuery.template]),
  route('contact-us', '/contact-us', () => import('./features/content/ContactUs').then((m) => m.ContactUs), 'Contact Us', 'Call, message or email Tala Brewing Co. customer care.', []),
  route('splash', '/splash', () => import('./features/gates/Splash').then((m) => m.Splash), 'Welcome', 'Tala Brewing Co. sells beer to adults 18 years old and above.', [policyTextQuery.template], {
    sitemap: false,
    policy: false,
  }),
  // SPEC 6: after login, to /checkout when login began there, else /buy-beer.
  route('login', '/login', () => import('./features/accounts/Login').then((m) => m.Login), 'Log In', 'Log in to your Tala Brewing Co. account.', [], {
    ...GUEST,
    params: ['from'],
    actions: [action(calls.login, '/buy-beer', { doneBy: { field: 'from', to: { checkout: '/checkout', cart: '/cart' } } })],
  }),
  route('logout', '/logout', () => import('./features/content/NotFound').then((m) => m.NotFound), 'Log Out', 'Log out.', [], {
    sitemap: false,
    redirect: '/',
    actions: [action(calls.logout, '/login?done=logout')],
  }),
  // The form mails a link; the link's page (with its `token`) creates the account.
  route('registration', '/registration', () => import('./features/accounts/Registration').then((m) => m.Registration), 'Create Account', 'Create a Tala Brewing Co. account.', [pendingRegistrationQuery.template], {
    ...GUEST,
    params: ['token'],
    actions: [
      action(calls.preRegister, '/registration?done=sent', { fallback: REGISTRATION_FAILED }),
      action(calls.registration, '/setup-address?done=welcome', { fallback: REGISTRATION_FAILED, linkToken: 'token' }),
    ],
  }),
  // Without a link the page mails one; with its `suid` it sets the new password.
  route('reset-password', '/reset-password', () => import('./features/accounts/Passwords').then((m) => m.ResetPassword), 'Reset Password', 'Choose a new password for your account.', [], {
    params: ['suid'],
    actions: [action(calls.resetLink, '/reset-password?done=sent'), action(calls.resetPassword, '/login?done=reset')],
    sitemap: false,
    policy: false,
  }),
  route('change-password', '/change-password', () => import('./features/accounts/Passwords').then((m) => m.ChangePassword), 'Change Password', 'Change the password of your account.', [], {
    ...MEMBER,
    actions: [action(calls.changePassword, '/my-account?done=password')],
  }),
  route('my-account', '/my-account', () => import('./features/accounts/MyAccount').then((m) => m.MyAccount), 'My Account', 'Your Tala Brewing Co. account.', [userQuery.template], {
    ...MEMBER,
    actions: [action(calls.updateUser, '/my-account?done=profile')],
  }),
  route('orders', '/my-account/orders', () => import('./features/orders/MyOrders').then((m) => m.MyOrders), 'My Orders', 'Your orders.', [myOrdersQuery.template], { ...MEMBER, params: ['page'] }),
  route('go-to-cases', '/my-account/go-to-cases', () => import('./features/goto-cases/GoToCasesPage').then((m) => m.GoToCasesPage), 'My Go-to Cases', 'Your Go-to Cases.', [gotoCasesQuery.template], {
    ...MEMBER,
    params: ['case'],
    actions: [
      action(calls.updateGotoCase, '/my-account/go-to-cases?done=saved', { answerLink: 'link' }),
      action(calls.removeGotoCaseItems, '/my-account/go-to-cases?done=removed', { answerLink: 'link' }),
      action(calls.deleteGotoCase, '/my-account/go-to-cases?done=deleted'),
    ],
  }),
  route('addresses', '/my-account/addresses', () => import('./features/accounts/Addresses').then((m) => m.Addresses), 'My Addresses', 'Your saved addresses.', [addressesQuery.template, ...ADDRESS_STEPS], {
    ...MEMBER,
    actions: [
      action(calls.createAddress, '/my-account/addresses?done=added'),
      action(calls.updateAddress, '/my-account/addresses?done=saved'),
      action(calls.deleteAddress, '/my-account/addresses?done=deleted'),
    ],
  }),
  // SPEC 2: deleting the account takes a ticked confirmation box.
  route('delete-account', '/my-account/delete-account', () => import('./features/accounts/MyAccount').then((m) => m.DeleteAccount), 'Delete Account', 'Delete your account.', [], {
    ...MEMBER,
    actions: [
      action(calls.deleteUser, '/?accountSuccessDelete=yes', {
        required: { confirm: 'Tick the box to confirm that you want to delete your account.' },
      }),
    ],
  }),
  // The first address becomes the location the shop is shown for, as USE THIS ADDRESS does.
  route('setup-address', '/setup-address', () => import('./features/accounts/Addresses').then((m) => m.SetupAddress), 'Your Address', 'Save your delivery address.', ADDRESS_STEPS, {
    ...MEMBER,
    actions: [action(calls.createAddress, '/buy-beer', { location: true })],
  }),
  route('newsletter-confirm', '/newsletter/confirm', () => import('./features/newsletter/Confirm').then((m) => m.ConfirmNewsletter), 'Newsletter', 'Confirm your newsletter subscription.', [], {
    params: ['token'],
    actions: [action(calls.confirmSubscription, '/newsletter/confirm?done=confirmed')],
    sitemap: false,
  }),
  route('atomic-design', '/atomic-design', () => import('./features/content/AtomicDesign').then((m) => m.AtomicDesign), 'Atomic design', 'The building blocks of the store UI.', [], {
    sitemap: false,
    policy: false,
  }),
];

/** What every page shows while the store is under maintenance (and at /maintenance). */
export const maintenanceRoute: RouteDef = route(
    'maintenance',
    '/maintenance', () => import('./features/content/Maintenance').then((m) => m.Maintenance),
    "We're Brewing Something For You",
    'The store is being updated and will be back shortly.',
    [],
    { sitemap: false, policy: false },
  );
routes.push(maintenanceRoute);

export const notFoundRoute: RouteDef = route(
  'not-found',
  '', () => import('./features/content/NotFound').then((m) => m.NotFound),
  'Page not found',
  'The page you were looking for is not here.',
  [],
  { sitemap: false },
);

/** The route the server rendered a page for (its `route`), the not-found page for another name. */
export function routeNamed(name: string): RouteDef {
  return routes.find((r) => r.name === name) ?? notFoundRoute;
}
