import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Carousel } from '../components/Carousel';
import { ProductCard } from '../components/ProductCard';
import { QuantityCounter } from '../components/QuantityCounter';
import { useHead } from '../head';
import { fillTemplate } from '../lib/keys';
import { formatPhp } from '../lib/money';
import type { Product as ProductT } from '../lib/types';
import { usePage } from '../page';
import { KEYS } from '../routes';

interface Single {
  product_single: ProductT;
  available_in_area: boolean | null;
  you_might_also_like: ProductT[];
}

export interface PackOption {
  value: 'case' | 'unit';
  label: string;
  price: number;
}

/**
 * SPEC 4, product selection: Cans offer only "Box of {unit_per_case}" at the case price; other
 * types offer "Case of {unit_per_case}" (case price) or Bottle (unit price); kegs have no selector
 * and sell at their price. The first option is the initial one: Cans start on the case price,
 * the others on the bottle.
 */
export function packOptions(p: ProductT): PackOption[] {
  if (p.types.name === 'Keg') return [];
  if (p.types.name === 'Cans') return [{ value: 'case', label: `Box of ${p.unit_per_case}`, price: p.price_per_case }];
  return [
    { value: 'unit', label: 'Bottle', price: p.price },
    { value: 'case', label: `Case of ${p.unit_per_case}`, price: p.price_per_case },
  ];
}

export function Product() {
  const page = usePage();
  const query = useQuery<Single>({ queryKey: [fillTemplate(KEYS.product, page.vars)] });
  // SPEC: a failed product load returns to /buy-beer.
  useEffect(() => {
    if (query.isError) window.location.assign('/buy-beer');
  }, [query.isError]);
  const p = query.data?.product_single;
  const options = p ? packOptions(p) : [];
  const [pack, setPack] = useState<PackOption['value'] | null>(null);
  const [, setQuantity] = useState(1);
  const chosen = options.find((o) => o.value === pack) ?? options[0];
  const price = chosen ? chosen.price : (p?.price ?? 0);
  useHead(
    p
      ? {
          title: `${p.product_name} | Tala Brewing Co.`,
          description: `${p.product_name}: ${p.description}`.slice(0, 300),
          jsonLd: [
            {
              '@context': 'https://schema.org',
              '@type': 'Product',
              name: p.product_name,
              sku: p.sku,
              brand: { '@type': 'Brand', name: p.brand },
              description: p.description,
              image: p.product_image ? `${page.origin}${p.product_image}` : undefined,
              offers: {
                '@type': 'Offer',
                priceCurrency: 'PHP',
                price: ((p.types.name === 'Cans' ? p.price_per_case : p.price) / 100).toFixed(2),
                availability: p.orderable ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
                url: `${page.origin}/single-product/${p.slug}`,
              },
            },
          ],
        }
      : {},
  );
  if (!p) return <p role="status">Loading product…</p>;
  const also = query.data?.you_might_also_like ?? [];
  return (
    <>
      <article className="product" aria-labelledby="product-title">
        <div className="product-media">
          {p.product_image ? (
            <img src={p.product_image} alt={p.product_name} width={480} height={480} />
          ) : (
            <span className="no-img product-img">Product image not available</span>
          )}
        </div>
        <div className="product-info">
          <h1 id="product-title">{p.product_name}</h1>
          <p className="product-meta">
            SKU {p.sku} · {p.types.name}
          </p>
          <p className="product-price" aria-live="polite">
            {formatPhp(price)}
            {chosen && <span className="per"> / {chosen.label.toLowerCase()}</span>}
            {!chosen && <span className="per"> / keg</span>}
          </p>
          <p>{p.description}</p>
          <form method="post" action="/cart" className="product-form">
            <input type="hidden" name="product_id" value={p.id} />
            {options.length > 0 && (
              <fieldset className="field">
                <legend>Type</legend>
                {options.map((o) => (
                  <label key={o.value} className="radio">
                    <input
                      type="radio"
                      name="pack"
                      value={o.value}
                      checked={chosen?.value === o.value}
                      onChange={() => setPack(o.value)}
                    />
                    {o.label} — {formatPhp(o.price)}
                  </label>
                ))}
              </fieldset>
            )}
            <p className="product-size">
              <span className="label">Size</span> {p.size}
            </p>
            <QuantityCounter id="quantity" name="quantity" label="Quantity" value={1} onChange={setQuantity} />
            {p.orderable ? (
              <button type="submit" className="add-to-cart">
                Add to Cart
              </button>
            ) : (
              <button type="button" disabled>
                Out Of Stock
              </button>
            )}
          </form>
          {query.data?.available_in_area === false && (
            <p className="warning" role="note">
              This product is not sold at your chosen location.
            </p>
          )}
          <p className="note">
            Some products are only available in certain areas. See our <a href="/delivery-areas">delivery areas</a>.
          </p>
        </div>
      </article>
      {also.length > 0 && (
        <section aria-labelledby="also-title" className="strip">
          <h2 id="also-title">YOU MIGHT ALSO LIKE</h2>
          <Carousel label="You might also like">
            {also.map((x) => (
              <ProductCard key={x.id} product={x} />
            ))}
          </Carousel>
        </section>
      )}
    </>
  );
}
