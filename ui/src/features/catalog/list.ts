// The list pages' addresses: /buy-beer with its packaging family, sort, filters and page, in one
// order and without what is the default, so a shared link, a crawler and the canonical address
// name a list the same way (the server reads them in crates/web/src/plan.rs `list_vars`).
import { LIST_SORTS } from '../../api/contract.gen';
import type { Vars } from '../../lib/keys';

/** The sort a list has when its address names none (the first of the menu). */
export const DEFAULT_SORT = LIST_SORTS[0].value;

/** The parameters of a list's address, in the order it writes them. */
export const LIST_PARAMS = ['filterByType', 'sort', 'style', 'brand', 'size', 'min', 'max', 'page'] as const;
export type ListParam = (typeof LIST_PARAMS)[number];

/** The filters a shopper narrows a list by (a count of them shows on the closed panel). */
export const FILTER_PARAMS: ListParam[] = ['style', 'brand', 'size', 'min', 'max'];

/**
 * The address of the list `vars` names with `change` made (a value of null or '' drops a
 * parameter). Any change but the page's own starts again at page 1; the default sort and page 1
 * are left out.
 */
export function listHref(path: string, vars: Vars, change: Partial<Record<ListParam, string | null>> = {}): string {
  const next: Partial<Record<ListParam, string>> = {};
  for (const p of LIST_PARAMS) {
    const v = p in change ? change[p] : vars[p];
    if (v != null && v !== '') next[p] = v;
  }
  if (!('page' in change)) delete next.page;
  if (next.sort === DEFAULT_SORT) delete next.sort;
  if (next.page === '1') delete next.page;
  const query = LIST_PARAMS.filter((p) => next[p] !== undefined)
    .map((p) => `${p}=${encodeURIComponent(next[p] as string).replace(/%20/g, '+')}`)
    .join('&');
  return query ? `${path}?${query}` : path;
}

/** How many filters of `vars` are set. */
export function activeFilters(vars: Vars): number {
  return FILTER_PARAMS.filter((p) => vars[p]).length;
}

/** "Showing 25–48 of 120 products" (what a page, or the pages loaded so far, show). */
export function showing(first: number, last: number, total: number): string {
  const noun = total === 1 ? 'product' : 'products';
  if (total === 0) return `0 ${noun}`;
  if (first === 1 && last >= total) return `${total} ${noun}`;
  return `Showing ${first}–${last} of ${total} ${noun}`;
}
