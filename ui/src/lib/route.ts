// The route machinery every feature's pages use: a route's declaration (`route`, `action`), what
// every page reads, and the loading of a route's page. A feature declares its pages in its own
// `features/<feature>/pages.ts` (`export const pages: FeaturePage[]`); the build lists those files
// in `src/pages.gen.ts` and `src/routes.ts` puts them in order into the route table, which the
// server reads (routes.json, the server bundle); the browser gets of it only each route's name,
// guard, parameters and loader (build.mjs, `browserRoutes`).

import { createElement, type ComponentType, type ReactElement } from 'react';
import type { Call } from '../api/contract.gen';

/**
 * The query parameters every page reads: the footer's newsletter message, the gates and their
 * no-JS steps, and the test date. Others (`utm_source`, `fbclid`, a cache buster) do not change a
 * page, so they neither reach its render nor split the cache.
 */
const EVERY_PAGE = ['newsletter', 'gate', 'fulfillment', 'province', 'city', 'barangay', 'testdate'];
/** What a page with forms reads: the message after a form (`done`). */
const FORM_PAGE = ['done'];
/** Account pages: for their visitor only, out of the sitemap and the search index. */
export const GUEST = { guard: 'guest', forms: true, sitemap: false, policy: false } as const;
export const MEMBER = { guard: 'member', forms: true, sitemap: false } as const;

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
  /** Kept out of search indexes (`<meta name="robots" content="noindex">`) though it has no forms. */
  noindex: boolean;
  /** Holds account forms: rendered for each visitor with the session's CSRF token, never shared. */
  forms: boolean;
  /** Links the account pages' stylesheet though the page has no forms (an order's page). */
  accountStyles: boolean;
  /**
   * The frame around the page: the shop's (header with location, cart and search, footer with the
   * newsletter) or none, for pages that draw their own (the back office's, features/staff).
   */
  shell: 'shop' | 'own';
  title: string;
  description: string;
  data: string[];
  /** The query parameters the page reads (`usePageParam` refuses any other). */
  params: string[];
  /** Of those, the ones its canonical address keeps. */
  canonical: string[];
  /** Where to send the browser when the page's own data does not exist (an unknown product). */
  missing: string | null;
  /**
   * Where a visitor goes whom the page's own data does not know (it answers 401): the sign-in of
   * the session it needs (the staff's). Nothing of the page is rendered for them.
   */
  signIn: string | null;
  /**
   * Who may see the page, by a field of its own data (the staff member's role in
   * `/api/v1/staff/me`): the server reads that data first, and sends anyone else on to `to`
   * before anything else is read. Pages of one role answer every other role alike.
   */
  only: Only | null;
  /** The address is only ever sent on (302) to this one. */
  redirect: string | null;
  /** The API calls the page's forms run when posted to its address (`<FormCall call={...}>`). */
  actions: Action[];
  /**
   * Loads what the page shows: `() => import('./Page').then((m) => m.Page)` in the feature's
   * pages.ts, the page's only mention (the client's; not in routes.json). The browser loads the
   * current page's before it hydrates, the server bundle every page before its first render
   * (`loadPage`).
   */
  load: PageLoader;
}

export type PageLoader = () => Promise<ComponentType>;

/** A page's audience (`RouteDef.only`): `data` is the page's first data template, `field` a JSON pointer into its answer, `values` those allowed; anyone else goes to `to`. */
export interface Only {
  data: string;
  field: string;
  values: string[];
  to: string;
}

/**
 * One page of a feature, as its `pages.ts` declares it: the route, and where it stands in the
 * route table. The server takes the first route whose path matches, and routes.json lists them by
 * `order` (lowest first); two pages never share one (routes.ts refuses it).
 */
export interface FeaturePage {
  order: number;
  route: RouteDef;
}

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
  /**
   * The field of the answer naming another site's page the server itself asked for (an order's
   * payment page): the browser goes there when it is set, before `answerLink`.
   */
  answerAway?: string;
  /** Without a live session the post starts a guest's (the cart's forms on shared pages). */
  startsSession?: boolean;
  /**
   * Where the browser goes instead when the answer says so: the first whose `field` (a JSON
   * pointer into the answer) is true or text that is not empty.
   */
  answerTo?: { field: string; to: string }[];
  /**
   * Fields the form sends several times (ticked checkboxes of one name), joined by commas into
   * one value for the call; other repeated fields keep their last value.
   */
  lists?: string[];
}

export function action(call: Call<unknown>, done: string, more: Omit<Action, 'call' | 'done'> = {}): Action {
  return { call: call.name, done, ...more };
}

const SITE = 'Tala Brewing Co.';

type Options = Partial<Pick<RouteDef, 'shop' | 'policy' | 'sitemap' | 'noindex' | 'guard' | 'forms' | 'accountStyles' | 'shell' | 'canonical' | 'missing' | 'signIn' | 'only' | 'redirect' | 'actions'>> & {
  /** Query parameters the page reads besides every page's (and `done` on pages with forms). */
  params?: string[];
};

export function route(
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
    noindex: opts.noindex ?? false,
    forms,
    accountStyles: opts.accountStyles ?? false,
    shell: opts.shell ?? 'shop',
    title: `${title} | ${SITE}`,
    description,
    data,
    params: [...EVERY_PAGE, ...(forms ? FORM_PAGE : []), ...(opts.params ?? [])],
    canonical: opts.canonical ?? [],
    missing: opts.missing ?? null,
    signIn: opts.signIn ?? null,
    only: opts.only ?? null,
    redirect: opts.redirect ?? null,
    actions,
    load,
  };
}

/** The maintenance page's route: every page while the store is under maintenance (routes.ts). */
export const MAINTENANCE = 'maintenance';

/** The route of `name` in `table` (the one the server rendered a page for), else `notFound`. */
export function routeIn<R extends { name: string }>(table: R[], notFound: R, name: string): R {
  return table.find((r) => r.name === name) ?? notFound;
}

const loaded = new Map<Pick<RouteDef, 'load'>, ComponentType>();

/** Loads a route's page (its chunk, in the browser) once; `pageOf` has it from then on. */
export async function loadPage(route: Pick<RouteDef, 'load'>): Promise<ComponentType> {
  let page = loaded.get(route);
  if (!page) {
    page = await route.load();
    loaded.set(route, page);
  }
  return page;
}

/** The page of a route whose component is loaded (renders are synchronous: no suspense). */
export function pageOf(route: Pick<RouteDef, 'load' | 'name'>): ReactElement {
  const page = loaded.get(route);
  if (!page) throw new Error(`the page of route ${route.name} is rendered before it was loaded`);
  return createElement(page);
}
