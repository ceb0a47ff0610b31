// The route table: one place that says which pages exist, who may see them and which API data
// each needs. The build writes it to dist/routes.json for the server, so server and client never
// disagree on a route. `data` holds query-key templates (see lib/keys.ts); the server fills the
// variables from the request (gate cookies, query, path) and runs those API calls in process.

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
  title: string;
  description: string;
  data: string[];
}

export const KEYS = {
  products: '/api/v1/products?barangay={barangay}&packaging={packaging}',
  packagings: '/api/v3/packagings',
  banners: '/api/v1/banners',
  promos: '/api/v1/products/promos?barangay={barangay}&testdate={testdate}',
  whatsNew: '/api/v1/products/whats-new?barangay={barangay}&packaging={packaging}',
  product: '/api/v2/products/{slug}/barangay/{barangay|0}',
  notice: '/api/v1/notice?testdate={testdate}',
  deliveryAreas: '/api/v1/delivery-areas',
  policyText: '/api/v1/site-texts/policy_agreement',
  termsText: '/api/v1/site-texts/terms_and_conditions',
  aboutText: '/api/v1/site-texts/about_us',
  noticeCities: '/api/v1/cities?filterByProvince=51',
} as const;

/** What the location gate lists, by step. `gate*` variables come from the gate's own state. */
export const GATE_KEYS = {
  policy: KEYS.policyText,
  packagings: KEYS.packagings,
  fulfillments: '/api/v3/fulfillment-types',
  provinces: '/api/v1/provinces',
  cities: '/api/v3/locations/provinces/{gateProvince|51}/fulfillments/{gateFulfillment|1}/cities',
  kegCities: '/api/v3/locations/cities',
  barangays: '/api/v3/locations/city/{gateCity}/barangays',
  streets: '/api/v3/locations/barangay/{gateBarangay}/streets',
} as const;

const SITE = 'Tala Brewing Co.';

function route(
  name: string,
  path: string,
  title: string,
  description: string,
  data: string[],
  opts: Partial<Pick<RouteDef, 'shop' | 'policy' | 'sitemap' | 'guard'>> = {},
): RouteDef {
  return {
    name,
    path,
    guard: opts.guard ?? 'none',
    shop: opts.shop ?? false,
    policy: opts.policy ?? true,
    sitemap: opts.sitemap ?? true,
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
    [KEYS.banners, KEYS.products, KEYS.notice, KEYS.noticeCities],
    { shop: true },
  ),
  route(
    'buy-beer',
    '/buy-beer',
    'Buy Beer',
    'Order Tala Brewing Co. beer by the case: bottles, cans and draft-beer kegs delivered in Metro Manila, Bulacan, Cavite and Rizal.',
    [KEYS.packagings, KEYS.products],
    { shop: true },
  ),
  route('promos', '/promos', 'Promos', 'Current promotions on Tala Brewing Co. bottles, cans and kegs.', [KEYS.promos], {
    shop: true,
  }),
  route(
    'whats-new',
    '/whats-new',
    "What's New",
    'The newest Tala Brewing Co. beers, seasonal releases and limited cans.',
    [KEYS.whatsNew],
    { shop: true },
  ),
  route('product', '/single-product/{slug}', 'Beer', 'A Tala Brewing Co. beer.', [KEYS.product], {
    shop: true,
    sitemap: false,
  }),
  route(
    'delivery-areas',
    '/delivery-areas',
    'Delivery Areas',
    'The cities and municipalities where Tala Brewing Co. delivers or has orders ready for pickup.',
    [KEYS.deliveryAreas],
  ),
  route('how-to-order', '/how-to-order', 'How it Works', 'How to order Tala Brewing Co. beer online, step by step.', []),
  route('faqs', '/faqs', 'FAQs', 'Answers to common questions about ordering, delivery, deposits and returns.', []),
  route(
    'privacy-policy',
    '/privacy-policy',
    'Privacy and Cookie Policy',
    'How Tala Brewing Co. uses cookies and handles your personal data.',
    [KEYS.policyText],
    { policy: false },
  ),
  route(
    'terms-and-conditions',
    '/terms-and-conditions',
    'Terms and Conditions',
    'The terms that apply to orders from the Tala Brewing Co. online store.',
    [KEYS.termsText],
    { policy: false },
  ),
  route('about-us', '/about-us', 'About Us', 'Tala Brewing Co. is an independent Filipino brewery.', [KEYS.aboutText]),
  route('contact-us', '/contact-us', 'Contact Us', 'Call, message or email Tala Brewing Co. customer care.', []),
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

/** Finds the route of a path and the values of its `{name}` segments. */
export function matchRoute(pathname: string): { route: RouteDef; params: Record<string, string> } {
  const parts = pathname.split('/').filter(Boolean);
  for (const r of routes) {
    const pattern = r.path.split('/').filter(Boolean);
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = pattern.every((seg, i) => {
      const m = /^\{(\w+)\}$/.exec(seg);
      if (m) {
        params[m[1]] = decodeURIComponent(parts[i]);
        return true;
      }
      return seg === parts[i];
    });
    if (ok) return { route: r, params };
  }
  return { route: notFoundRoute, params: {} };
}
