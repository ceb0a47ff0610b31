import { RadioGroup } from '../../components/RadioGroup';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { calls, type Pack, type PackOption, type ProductView } from '../../api/contract.gen';
import { Carousel } from '../../components/Carousel';
import { ProductCard } from '../catalog';
import { useHead } from '../../head';
import { formatPhp } from '../../lib/money';
import { usePage } from '../../page';
import { productQuery } from './queries';
import { QuantityCounter, parseQuantity } from '../../components/QuantityCounter';
import { Photo } from '../../components/Photo';
import { FormCall } from '../../components/form';
import { COOKIE, LOCATION_NOTICE_MAX_AGE, setCookie, useGate } from '../gate';
import { CartErrorDialog, useAddToCart } from '../cart';

/**
 * How a product is sold, as the server decides it (`sold_as`, `pack_options`): cans offer only
 * the box, bottles the bottle (first) or the case; kegs have no selector and sell at their price.
 */
export function packOptions(p: ProductView): PackOption[] {
  return p.sold_as === 'keg' ? [] : p.pack_options;
}

/**
 * Add to Cart: a real form to /cart (the cart page's addToCart action) that works
 * without JavaScript; with it the same fields are sent to the API after 500 ms, the drawer opens
 * with the message, and a refusal opens the Error modal. Without a location yet, the button opens
 * the location gate (a GET of `?gate=location` without JavaScript).
 */
function AddToCartForm({ p, options, chosen, onPack }: { p: ProductView; options: PackOption[]; chosen: PackOption | undefined; onPack: (v: Pack) => void }) {
  const page = usePage();
  const { gate, open } = useGate();
  const cart = useAddToCart();
  const barangay = page.vars.barangay ? Number(page.vars.barangay) : null;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (barangay === null) {
      open('location');
      return;
    }
    const fields = new FormData(e.currentTarget);
    const pack = fields.get('pack');
    cart.add({
      product_id: p.id,
      name: p.product_name,
      quantity: Math.max(1, parseQuantity(String(fields.get('quantity') ?? '1')) ?? 1),
      pack: pack === 'case' || pack === 'unit' ? pack : undefined,
      place: { barangay, fulfillment: gate.fulfillmentId, street_id: gate.streetId },
    });
  };
  return (
    <>
      <form method={barangay === null ? 'get' : 'post'} action={barangay === null ? undefined : '/cart'} className="product-form" onSubmit={submit}>
        {barangay === null ? (
          <input type="hidden" name="gate" value="location" />
        ) : (
          <>
            <FormCall call={calls.addToCart} />
            <input type="hidden" name="product_id" value={p.id} />
            <input type="hidden" name="barangay" value={barangay} />
            {gate.streetId !== null && <input type="hidden" name="street_id" value={gate.streetId} />}
            {gate.fulfillmentId !== null && <input type="hidden" name="fulfillment" value={gate.fulfillmentId} />}
          </>
        )}
        {options.length > 0 && (
          <RadioGroup
            legend="Type"
            name="pack"
            items={options}
            value={chosen?.pack}
            id={(o) => o.pack}
            text={(o) => `${o.label} — ${formatPhp(o.price)}`}
            onChange={onPack}
          />
        )}
        <p className="product-size">
          <span className="label">Size</span>
          {` ${p.size}`}
        </p>
        {/* The form reads the quantity when it is sent. */}
        <QuantityCounter id="quantity" name="quantity" label="Quantity" value={1} onChange={() => {}} />
        {p.orderable ? (
          <button type="submit" className="add-to-cart" aria-busy={cart.busy || undefined}>
            Add to Cart
          </button>
        ) : (
          <button type="button" disabled>
            Out Of Stock
          </button>
        )}
      </form>
      {cart.refusal && <CartErrorDialog message={cart.refusal.message} products={cart.refusal.products} onClose={cart.dismiss} />}
    </>
  );
}

/**
 * The notice that some products are only sold in certain areas, until the shopper puts it
 * away: then the location notice flag (cookie `locationNotice`, 2629746 s) keeps it
 * away. Without JavaScript the button posts to `/notice/location`, which writes the cookie and
 * comes back; with it the same cookie is written here. The server reads the flag into the page
 * (`locationNoticeSeen`, part of the page's cache key), so the first render and hydration agree.
 */
function LocationNotice() {
  const page = usePage();
  const [shown, setShown] = useState(!page.locationNoticeSeen);
  if (!shown) return null;
  const dismiss = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setCookie(COOKIE.locationNotice, '1', LOCATION_NOTICE_MAX_AGE);
    setShown(false);
    document.getElementById('product-title')?.focus();
  };
  return (
    <form method="post" action="/notice/location" className="note" onSubmit={dismiss}>
      <p>
        Some products are only available in certain areas. See our <a href="/delivery-areas">delivery areas</a>.
      </p>
      <input type="hidden" name="return_to" value={page.url} />
      <button type="submit" className="secondary">
        Don&apos;t show this again
      </button>
    </form>
  );
}

/** What the product page's image takes of the page: half of it from 768 px (styles.css `.product`), a phone's strip below. */
const PRODUCT_SIZES = '(min-width: 1200px) 568px, (min-width: 768px) calc(50vw - 32px), 320px';

/** The product's title and description, and the product as search engines read it (JSON-LD). */
function useProductHead(p: ProductView | undefined, origin: string) {
  useHead(
    p
      ? {
          title: `${p.product_name} | Tala Brewing Co.`,
          description: `${p.product_name}: ${p.description}`.slice(0, 300),
          image: p.photo ? `${origin}${p.photo.large}` : undefined,
          jsonLd: [
            {
              '@context': 'https://schema.org',
              '@type': 'Product',
              name: p.product_name,
              sku: p.sku,
              brand: { '@type': 'Brand', name: p.brand },
              description: p.description,
              image: p.photo ? `${origin}${p.photo.large}` : p.product_image ? `${origin}${p.product_image}` : undefined,
              offers: {
                '@type': 'Offer',
                priceCurrency: 'PHP',
                price: ((p.pack_options[0]?.price ?? p.price) / 100).toFixed(2),
                availability: p.orderable ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
                url: `${origin}/single-product/${p.slug}`,
              },
            },
          ],
        }
      : {},
  );
}

/** YOU MIGHT ALSO LIKE: a carousel of other products. */
function AlsoLike({ products }: { products: ProductView[] }) {
  if (products.length === 0) return null;
  return (
    <section aria-labelledby="also-title" className="strip">
      <h2 id="also-title">YOU MIGHT ALSO LIKE</h2>
      <Carousel label="You might also like">
        {products.map((x) => (
          <ProductCard key={x.id} product={x} />
        ))}
      </Carousel>
    </section>
  );
}

export function Product() {
  const page = usePage();
  const query = useQuery(productQuery.options(page.vars));
  // A failed product load returns to /buy-beer.
  useEffect(() => {
    if (query.isError) window.location.assign('/buy-beer');
  }, [query.isError]);
  const p = query.data?.product_single;
  const options = p ? packOptions(p) : [];
  const [pack, setPack] = useState<Pack | null>(null);
  const chosen = options.find((o) => o.pack === pack) ?? options[0];
  const price = chosen ? chosen.price : (p?.price ?? 0);
  useProductHead(p, page.origin);
  if (!p) return <p role="status">Loading product…</p>;
  return (
    <>
      <article className="product" aria-labelledby="product-title">
        <div className="product-media">
          {p.photo ? (
            <Photo photo={p.photo} alt={p.product_name} sizes={PRODUCT_SIZES} eager />
          ) : p.product_image ? (
            <img src={p.product_image} alt={p.product_name} width={480} height={480} />
          ) : (
            <span className="no-img product-img">Product image not available</span>
          )}
        </div>
        <div className="product-info">
          {/* Focus comes here when the location notice is put away. */}
          <h1 id="product-title" tabIndex={-1}>
            {p.product_name}
          </h1>
          <p className="product-meta">{`SKU ${p.sku} · ${p.types.name}`}</p>
          <p className="product-price" aria-live="polite">
            {formatPhp(price)}
            {chosen && <span className="per">{` / ${chosen.label.toLowerCase()}`}</span>}
            {!chosen && <span className="per"> / keg</span>}
          </p>
          <AddToCartForm p={p} options={options} chosen={chosen} onPack={setPack} />
          {query.data?.available_in_area === false && (
            <p className="warning" role="note">
              This product is not sold at your chosen location.
            </p>
          )}
          <p>{p.description}</p>
          <LocationNotice />
        </div>
      </article>
      <AlsoLike products={query.data?.you_might_also_like ?? []} />
    </>
  );
}
