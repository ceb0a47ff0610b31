import { useQuery } from '@tanstack/react-query';
import { ProductGrid } from '../catalog';
import { QueryState } from '../../components/QueryState';
import { usePage } from '../../page';
import { searchQuery } from './queries';

function count(n: number): string {
  return `${n} ${n === 1 ? 'beer' : 'beers'}`;
}

/**
 * /search?q=: what the header's search box found. What can be ordered at the shopper's place
 * first; what cannot (not sold there, or not now) apart below it.
 */
export function SearchPage() {
  const page = usePage();
  const q = page.vars.q ?? '';
  // Without words the page asks nothing (the store would find nothing).
  const found = useQuery({ ...searchQuery.options(page.vars), enabled: q !== '' });
  if (!q) {
    return (
      <>
        <h1>Search</h1>
        <p>Type a beer&apos;s name, brewery, style, packaging or size in the search box above: “habagat lata”, “pilsen grande”, “keg 30l”.</p>
      </>
    );
  }
  return (
    <>
      <h1>Search results for “{q}”</h1>
      <QueryState
        query={found}
        loading="Searching…"
        error="We could not search the catalog. Please try again."
        retry
        isEmpty={(d) => d.products.length === 0 && d.elsewhere.length === 0}
        empty="No beers match your search. Check the spelling, or try fewer or other words."
      >
        {(data) => (
          <>
            <p className="count" role="status">
              {data.products.length > 0 ? `${count(data.products.length)} you can order` : 'None of the beers found can be ordered where you are.'}
            </p>
            {data.products.length > 0 && <ProductGrid products={data.products} />}
            {data.elsewhere.length > 0 && (
              <section aria-labelledby="elsewhere-title">
                <h2 id="elsewhere-title">Not available where you are ({count(data.elsewhere.length)})</h2>
                <p className="note">Not sold at your delivery location, or not for now. Choose another location to see where they are sold.</p>
                <ProductGrid products={data.elsewhere} />
              </section>
            )}
          </>
        )}
      </QueryState>
    </>
  );
}
