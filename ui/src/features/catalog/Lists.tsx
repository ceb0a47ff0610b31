import { useQuery } from '@tanstack/react-query';
import { ProductCard, ProductGrid } from './ProductCard';
import { QueryState } from '../../components/QueryState';
import { usePage } from '../../page';
import { promosQuery, whatsNewQuery } from './queries';
import { listHref } from './list';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `2026-12-31` as `December 31, 2026` (by hand: the server renderer has no Intl). */
export function longDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return `${MONTHS[m - 1] ?? ''} ${d}, ${y}`;
}

export function Promos() {
  const page = usePage();
  const promos = useQuery(promosQuery.options(page.vars));
  return (
    <>
      <h1>Promos</h1>
      <QueryState
        query={promos}
        loading="Loading promotions…"
        error="We could not load the promotions. Please try again."
        isEmpty={(d) => d.results.length === 0}
        empty="There are no promotions for your location right now. Check back soon!"
      >
        {(data) => (
          <ul className="promos">
            {data.results.map((promo) => (
              <li key={promo.id} className="promo">
                <div>
                  <h2>{promo.title}</h2>
                  <p>{promo.description}</p>
                  <p className="note">Until {longDate(promo.ends_on)}</p>
                </div>
                <ul className="grid single">
                  <ProductCard product={promo.product} />
                </ul>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </>
  );
}

export function WhatsNew() {
  const page = usePage();
  const list = useQuery(whatsNewQuery.options(page.vars));
  return (
    <>
      <h1>What's New</h1>
      <p>Fresh from the brewhouse: our newest beers first.</p>
      <QueryState
        query={list}
        loading="Loading products…"
        error="We could not load the products. Please try again."
        isEmpty={(d) => d.products.length === 0}
        empty="No products are available for your location and category yet."
      >
        {(data) => (
          <>
            <ProductGrid products={data.products} />
            {/* The strip shows the newest few; every beer, newest first, is a list of its own. */}
            <p className="more-link">
              <a href={listHref('/buy-beer', { sort: 'newest' })}>See all our beers, newest first</a>
            </p>
          </>
        )}
      </QueryState>
    </>
  );
}
