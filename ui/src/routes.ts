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
  title: string;
  description: string;
  data: string[];
}

export const PRODUCTS_KEY = '/api/v1/products?barangay={barangay}&packaging={packaging}';
export const PACKAGINGS_KEY = '/api/v3/packagings';

export const routes: RouteDef[] = [
  {
    name: 'buy-beer',
    path: '/buy-beer',
    guard: 'none',
    title: 'Buy Beer | Tala Brewing Co.',
    description:
      'Order Tala Brewing Co. beer by the case: bottles, cans and draft-beer kegs delivered in Metro Manila, Bulacan, Cavite and Rizal.',
    data: [PACKAGINGS_KEY, PRODUCTS_KEY],
  },
];

export const notFoundRoute: RouteDef = {
  name: 'not-found',
  path: '',
  guard: 'none',
  title: 'Page not found | Tala Brewing Co.',
  description: 'The page you were looking for is not here.',
  data: [],
};

/** Finds the route of a path and the values of its `{name}` segments. */
export function matchRoute(pathname: string): { route: RouteDef; params: Record<string, string> } {
  const parts = pathname.split('/').filter(Boolean);
  for (const route of routes) {
    const pattern = route.path.split('/').filter(Boolean);
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
    if (ok) return { route, params };
  }
  return { route: notFoundRoute, params: {} };
}
