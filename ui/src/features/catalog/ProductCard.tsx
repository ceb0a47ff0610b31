import type { FormEvent } from 'react';
import { calls, type ProductView as Product } from '../../api/contract.gen';
import { CartErrorDialog, useAddToCart } from '../cart';
import { useGate } from '../gate';
import { listPrice } from './price';
import { usePage } from '../../page';
import { CARD_SIZES, Photo } from '../../components/Photo';
import { FormCall } from '../../components/form';

/** A card's Add to Cart: a form to /cart without JavaScript, the debounced API call with it. */
function CardAdd({ product }: { product: Product }) {
  const page = usePage();
  const { gate, open } = useGate();
  const cart = useAddToCart();
  const barangay = page.vars.barangay ? Number(page.vars.barangay) : null;
  // The card's quantity (a box of cans, else one) is the API's, decided by the packaging.
  const quantity = product.card_quantity;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (barangay === null) open('location');
    else cart.add({ product_id: product.id, name: product.product_name, quantity, place: { barangay, fulfillment: gate.fulfillmentId, street_id: gate.streetId } });
  };
  if (!product.orderable || barangay === null) return null;
  return (
    <>
      <form method="post" action="/cart" onSubmit={submit} className="card-add">
        <FormCall call={calls.addToCart} />
        <input type="hidden" name="product_id" value={product.id} />
        <input type="hidden" name="quantity" value={quantity} />
        <input type="hidden" name="barangay" value={barangay} />
        {gate.streetId !== null && <input type="hidden" name="street_id" value={gate.streetId} />}
        {gate.fulfillmentId !== null && <input type="hidden" name="fulfillment" value={gate.fulfillmentId} />}
        <button type="submit" className="secondary" aria-label={`Add to Cart: ${product.product_name}`} aria-busy={cart.busy || undefined}>
          Add to Cart
        </button>
      </form>
      {cart.refusal && <CartErrorDialog message={cart.refusal.message} products={cart.refusal.products} onClose={cart.dismiss} />}
    </>
  );
}

/**
 * The card's image is decorative: the product's name follows it inside the same link. `add`
 * gives it an Add to Cart button (recommended cards).
 */
export function ProductCard({ product, eager = false, add = false }: { product: Product; eager?: boolean; add?: boolean }) {
  const price = listPrice(product);
  return (
    <li className="card">
      <a className="card-link" href={`/single-product/${encodeURIComponent(product.slug)}`}>
        {product.photo ? (
          <Photo photo={product.photo} alt="" sizes={CARD_SIZES} className="card-img" eager={eager} />
        ) : product.product_image ? (
          <img
            className="card-img"
            src={product.product_image}
            alt=""
            width={240}
            height={240}
            loading={eager ? 'eager' : 'lazy'}
            decoding="async"
          />
        ) : (
          <span className="card-img no-img">Product image not available</span>
        )}
        <span className="card-name">{product.product_name}</span>
      </a>
      {/* Each text one string: React would write adjacent texts with a comment between them, more nodes to hydrate. */}
      <span className="card-meta">{`${product.types.name} · ${product.size}`}</span>
      <span className="card-price">
        {`${price.amount} `}
        <span className="per">{`/ ${price.per}`}</span>
      </span>
      {!product.orderable && <span className="badge">Out Of Stock</span>}
      {add && <CardAdd product={product} />}
    </li>
  );
}

/** Products as a grid (lists) — the first row loads eagerly. */
export function ProductGrid({ products }: { products: Product[] }) {
  return (
    <ul className="grid">
      {products.map((p, i) => (
        <ProductCard key={p.id} product={p} eager={i < 4} />
      ))}
    </ul>
  );
}
