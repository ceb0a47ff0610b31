import { useQuery } from '@tanstack/react-query';
import { ProductGrid } from '../../components/ProductCard';
import { searchParam, usePage } from '../../page';
import { productsQuery } from './queries';

const FILTERS: { value: string | null; label: string }[] = [
  { value: null, label: 'All beers' },
  { value: 'bottle', label: 'Bottles' },
  { value: 'can', label: 'Cans' },
  { value: 'keg', label: 'Kegs' },
];

export function BuyBeer() {
  const page = usePage();
  const { data, isPending, isError, refetch } = useQuery(productsQuery.options(page.vars));
  const current = searchParam(page.url, 'filterByType');

  return (
    <>
      <h1>Buy Beer</h1>
      <nav aria-label="Product type" className="filters">
        <ul>
          {FILTERS.map((f) => (
            <li key={f.label}>
              <a
                href={f.value ? `/buy-beer?filterByType=${f.value}#browse-cont` : '/buy-beer#browse-cont'}
                aria-current={(current ?? null) === f.value ? 'page' : undefined}
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
        {isPending ? (
          <p role="status">Loading products…</p>
        ) : isError ? (
          <p role="alert">
            We could not load the products. <button onClick={() => refetch()}>Try again</button>
          </p>
        ) : data.products.length === 0 ? (
          <p className="empty">
            No products are available for your location and category yet. Try another category, or choose another
            delivery location.
          </p>
        ) : (
          <>
            <p className="count" role="status">
              {data.products.length} {data.products.length === 1 ? 'product' : 'products'}
            </p>
            <ProductGrid products={data.products} />
          </>
        )}
      </section>
    </>
  );
}
