import type { ProductView as Product } from '../api/contract.gen';
import { listPrice } from '../lib/price';

/** The card's image is decorative: the product's name follows it inside the same link. */
export function ProductCard({ product, eager = false }: { product: Product; eager?: boolean }) {
  const price = listPrice(product);
  return (
    <li className="card">
      <a className="card-link" href={`/single-product/${encodeURIComponent(product.slug)}`}>
        {product.product_image ? (
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
      <span className="card-meta">
        {product.types.name} · {product.size}
      </span>
      <span className="card-price">
        {price.amount} <span className="per">/ {price.per}</span>
      </span>
      {!product.orderable && <span className="badge">Out Of Stock</span>}
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
