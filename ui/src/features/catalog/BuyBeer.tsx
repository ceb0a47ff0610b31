import { useQuery } from '@tanstack/react-query';
import { ProductGrid } from '../../components/ProductCard';
import { QueryState } from '../../components/QueryState';
import { useGate } from '../../lib/gate';
import { usePage } from '../../page';
import { productsQuery } from './queries';

const FILTERS: { value: string | null; label: string }[] = [
  { value: null, label: 'All beers' },
  { value: 'bottle', label: 'Bottles' },
  { value: 'can', label: 'Cans' },
  { value: 'keg', label: 'Kegs' },
];

export function BuyBeer() {
  const page = usePage();
  const products = useQuery(productsQuery.options(page.vars));
  const { gate } = useGate();
  // The filter marked is the one the list shows: the `filterByType` the server understood (the
  // last of repeated ones), else the shopper's category.
  const current = page.vars.filterByType ?? gate.family ?? null;

  return (
    <>
      <h1>Buy Beer</h1>
      <nav aria-label="Product type" className="filters">
        <ul>
          {FILTERS.map((f) => (
            <li key={f.label}>
              <a
                href={f.value ? `/buy-beer?filterByType=${f.value}#browse-cont` : '/buy-beer#browse-cont'}
                aria-current={current === f.value ? 'page' : undefined}
              >
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
          isEmpty={(d) => d.products.length === 0}
          empty="No products are available for your location and category yet. Try another category, or choose another delivery location."
        >
          {(data) => (
            <>
              <p className="count" role="status">
                {data.products.length} {data.products.length === 1 ? 'product' : 'products'}
              </p>
              <ProductGrid products={data.products} />
            </>
          )}
        </QueryState>
      </section>
    </>
  );
}
