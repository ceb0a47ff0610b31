import { useLayoutEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LIST_MAX_PESOS, LIST_SORTS, type Facet, type ProductList, type ProductView } from '../../api/contract.gen';
import { ProductGrid } from './ProductCard';
import { QueryState } from '../../components/QueryState';
import { useGate } from '../gate';
import { useHydrated, usePage } from '../../page';
import { activeFilters, DEFAULT_SORT, listHref, showing } from './list';
import { productsQuery } from './queries';

const PATH = '/buy-beer';

const FAMILIES: { value: string | null; label: string }[] = [
  { value: null, label: 'All beers' },
  { value: 'bottle', label: 'Bottles' },
  { value: 'can', label: 'Cans' },
  { value: 'keg', label: 'Kegs' },
];

export function BuyBeer() {
  const page = usePage();
  const products = useQuery(productsQuery.options(page.vars));
  const { gate } = useGate();
  // The family marked is the one the list shows: the `filterByType` the server understood (the
  // last of repeated ones), else the shopper's category.
  const current = page.vars.filterByType ?? gate.family ?? null;

  return (
    <>
      <h1>Buy Beer</h1>
      <nav aria-label="Product type" className="filters">
        <ul>
          {FAMILIES.map((f) => (
            <li key={f.label}>
              <a href={`${listHref(PATH, page.vars, { filterByType: f.value })}#browse-cont`} aria-current={current === f.value ? 'page' : undefined}>
                {f.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <section id="browse-cont" aria-labelledby="browse-title">
        <h2 id="browse-title" className="visually-hidden">
          Products
        </h2>
        <QueryState
          query={products}
          loading="Loading products…"
          error="We could not load the products."
          retry
          isEmpty={(d) => d.total === 0 && activeFilters(page.vars) === 0}
          empty="No products are available for your location and category yet. Try another category, or choose another delivery location."
        >
          {(data) => (
            <>
              <ListControls list={data} />
              <ListPages list={data} />
            </>
          )}
        </QueryState>
      </section>
    </>
  );
}

/**
 * Sort and filters: a GET form to the list's own address (works without JavaScript; the chosen
 * values are in the address, so a shared link shows the same list). Open when a filter is set.
 */
function ListControls({ list }: { list: ProductList }) {
  const page = usePage();
  const vars = page.vars;
  const active = activeFilters(vars);
  const peso = (centavos: number, up: boolean) => (up ? Math.ceil(centavos / 100) : Math.floor(centavos / 100));
  return (
    <details className="list-controls" open={active > 0}>
      <summary>Sort and filter{active > 0 ? ` (${active} ${active === 1 ? 'filter' : 'filters'})` : ''}</summary>
      <form method="get" action={`${PATH}#browse-cont`} className="list-form">
        {vars.filterByType && <input type="hidden" name="filterByType" value={vars.filterByType} />}
        <label>
          Sort by
          <select name="sort" defaultValue={vars.sort ?? DEFAULT_SORT}>
            {LIST_SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <FacetSelect name="style" label="Style" all="All styles" facets={list.facets.styles} value={vars.style} />
        <FacetSelect name="brand" label="Brewery" all="All breweries" facets={list.facets.brands} value={vars.brand} />
        <FacetSelect name="size" label="Size" all="All sizes" facets={list.facets.sizes} value={vars.size} />
        <fieldset className="price-range">
          <legend>Price of one (₱)</legend>
          <label>
            From
            <input type="number" name="min" inputMode="numeric" min={0} max={LIST_MAX_PESOS} step={1} defaultValue={vars.min ?? ''} placeholder={String(peso(list.facets.min_price, false))} />
          </label>
          <label>
            to
            <input type="number" name="max" inputMode="numeric" min={0} max={LIST_MAX_PESOS} step={1} defaultValue={vars.max ?? ''} placeholder={String(peso(list.facets.max_price, true))} />
          </label>
        </fieldset>
        <div className="list-actions">
          <button type="submit">Show products</button>
          {(active > 0 || vars.sort) && <a href={`${listHref(PATH, { filterByType: vars.filterByType })}#browse-cont`}>Clear all</a>}
        </div>
      </form>
    </details>
  );
}

function FacetSelect({ name, label, all, facets, value }: { name: string; label: string; all: string; facets: Facet[]; value?: string }) {
  // A value the place does not have (a shared link from elsewhere) stays chosen, with no count.
  const known = !value || facets.some((f) => f.value.toLowerCase() === value.toLowerCase());
  const chosen = value ? (facets.find((f) => f.value.toLowerCase() === value.toLowerCase())?.value ?? value) : '';
  return (
    <label>
      {label}
      <select name={name} defaultValue={chosen}>
        <option value="">{all}</option>
        {!known && <option value={value}>{`${value} (0)`}</option>}
        {facets.map((f) => (
          <option key={f.value} value={f.value}>
            {`${f.value} (${f.count})`}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * "Load more": the pages after `list`'s fetched and added below it (a product already shown, in a
 * list that changed between pages, not twice), and focus moved to the first product added, where
 * a keyboard user reads on (the count above announces how many are shown).
 */
function useLoadMore(list: ProductList) {
  const page = usePage();
  const client = useQueryClient();
  const [more, setMore] = useState<{ items: ProductView[]; last: number }>({ items: [], last: list.page });
  const [loading, setLoading] = useState<'idle' | 'loading' | 'failed'>('idle');
  const grid = useRef<HTMLDivElement>(null);
  const focusFrom = useRef<number | null>(null);
  // In the commit that adds them (a layout effect), so the count and the focus change together.
  useLayoutEffect(() => {
    const from = focusFrom.current;
    if (from === null) return;
    focusFrom.current = null;
    grid.current?.querySelectorAll<HTMLElement>('.grid > li a.card-link')[from]?.focus();
  }, [more.last]);

  async function loadMore() {
    // The button stays focusable while it loads (a disabled one drops focus to the page's top).
    if (loading === 'loading') return;
    setLoading('loading');
    try {
      const n = more.last + 1;
      const got = await client.fetchQuery(productsQuery.options({ ...page.vars, page: String(n) }));
      const seen = new Set([...list.products, ...more.items].map((p) => p.id));
      focusFrom.current = list.products.length + more.items.length;
      setMore({ items: [...more.items, ...got.products.filter((p) => !seen.has(p.id))], last: n });
      setLoading('idle');
    } catch {
      setLoading('failed');
    }
  }
  return { more, loading, loadMore, grid };
}

/**
 * The products of the page, and links to the pages before and after it (`rel="prev"`/`"next"`,
 * followed by crawlers and working without JavaScript). With JavaScript, "Load more" adds the next
 * page below instead of leaving.
 */
function ListPages({ list }: { list: ProductList }) {
  const page = usePage();
  const hydrated = useHydrated();
  const { more, loading, loadMore, grid } = useLoadMore(list);
  const first = (list.page - 1) * list.per_page + 1;
  const shown = list.products.length + more.items.length;
  const prev = list.page > 1 && list.pages > 0 ? listHref(PATH, page.vars, { page: String(Math.min(list.page - 1, list.pages)) }) : null;
  const next = more.last < list.pages ? listHref(PATH, page.vars, { page: String(more.last + 1) }) : null;

  if (list.total === 0) {
    return (
      <p className="empty" role="status">
        No products match these filters. Try fewer filters, or <a href={`${listHref(PATH, { filterByType: page.vars.filterByType })}#browse-cont`}>show all products</a>.
      </p>
    );
  }
  if (list.products.length === 0) {
    return (
      <p className="empty" role="status">
        There is no page {list.page}: this list has {list.pages} {list.pages === 1 ? 'page' : 'pages'}. <a href={`${listHref(PATH, page.vars, { page: String(list.pages) })}#browse-cont`}>Go to the last page</a>.
      </p>
    );
  }
  return (
    <>
      <p className="count" role="status">
        {showing(first, first + shown - 1, list.total)}
      </p>
      <div ref={grid}>
        <ProductGrid products={more.items.length ? [...list.products, ...more.items] : list.products} />
      </div>
      {list.pages > 1 && (
        <nav className="pager" aria-label="Pages of products">
          {prev && (
            <a href={`${prev}#browse-cont`} rel="prev">
              Previous page
            </a>
          )}
          <span>
            Page {more.last === list.page ? list.page : `${list.page}–${more.last}`} of {list.pages}
          </span>
          {next && hydrated && (
            <button type="button" onClick={loadMore} aria-disabled={loading === 'loading' ? true : undefined} aria-describedby={loading === 'failed' ? 'load-more-failed' : undefined}>
              {loading === 'loading' ? 'Loading…' : 'Load more'}
            </button>
          )}
          {next && (
            <a href={`${next}#browse-cont`} rel="next">
              Next page
            </a>
          )}
          {loading === 'failed' && (
            <span id="load-more-failed" role="alert">
              We could not load more products. Please try again.
            </span>
          )}
        </nav>
      )}
    </>
  );
}
