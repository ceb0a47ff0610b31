import { useQuery } from '@tanstack/react-query';
import { ProductCard, ProductGrid } from '../../components/ProductCard';
import { usePage } from '../../page';
import { promosQuery, whatsNewQuery } from './queries';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `2026-12-31` as `December 31, 2026` (by hand: the server renderer has no Intl). */
export function longDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return `${MONTHS[m - 1] ?? ''} ${d}, ${y}`;
}

export function Promos() {
  const page = usePage();
  const { data, isPending, isError } = useQuery(promosQuery.options(page.vars));
  return (
    <>
      <h1>Promos</h1>
      {isPending ? (
        <p role="status">Loading promotions…</p>
      ) : isError ? (
        <p role="alert">We could not load the promotions. Please try again.</p>
      ) : data.results.length === 0 ? (
        <p className="empty">There are no promotions for your location right now. Check back soon!</p>
      ) : (
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
    </>
  );
}

export function WhatsNew() {
  const page = usePage();
  const { data, isPending, isError } = useQuery(whatsNewQuery.options(page.vars));
  return (
    <>
      <h1>What's New</h1>
      <p>Fresh from the brewhouse: our newest beers first.</p>
      {isPending ? (
        <p role="status">Loading products…</p>
      ) : isError ? (
        <p role="alert">We could not load the products. Please try again.</p>
      ) : data.products.length === 0 ? (
        <p className="empty">No products are available for your location and category yet.</p>
      ) : (
        <ProductGrid products={data.products} />
      )}
    </>
  );
}
