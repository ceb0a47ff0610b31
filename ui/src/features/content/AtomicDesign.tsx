import { useState } from 'react';
import type { ProductView as Product } from '../../api/contract.gen';
import { Carousel } from '../../components/Carousel';
import { ProductCard } from '../catalog';
import { QuantityCounter } from '../../components/QuantityCounter';

const sample = (id: number, over: Partial<Product> = {}): Product => ({
  id,
  slug: `sample-${id}`,
  product_name: 'Tala Pale Pilsen 320 ml',
  sku: `TBC-BTL-00${id}`,
  brand: 'Tala',
  size: '320 ml',
  style: 'Pale Pilsen',
  price: 5200,
  price_per_case: 118800,
  unit_per_case: 24,
  types: { id: 2, name: 'Full Goods' },
  packaging: { id: 1, name: 'BOTTLES' },
  product_image: '/img/products/tala-pale-pilsen-320ml.webp',
  photo: null,
  description: '',
  custom_description: '',
  orderable: true,
  created_on: '2026-01-01',
  sold_as: 'case_or_bottle',
  pack_options: [
    { pack: 'unit', label: 'Bottle', price: 5200 },
    { pack: 'case', label: 'Case of 24', price: 118800 },
  ],
  card_quantity: 1,
  ...over,
});

/** Buttons: primary, secondary, disabled, and a link that looks like one. */
function Buttons() {
  return (
    <section aria-labelledby="ad-buttons">
      <h2 id="ad-buttons">Buttons</h2>
      <p className="row">
        <button type="button">Primary</button>
        <button type="button" className="secondary">
          Secondary
        </button>
        <button type="button" disabled>
          Disabled
        </button>
        <a className="button" href="#ad-buttons">
          Link as button
        </a>
      </p>
    </section>
  );
}

/** Inputs: a field, one with an error, a select and an empty one. */
function Inputs() {
  return (
    <section aria-labelledby="ad-inputs">
      <h2 id="ad-inputs">Inputs</h2>
      <div className="field">
        <label htmlFor="ad-text">Email Address</label>
        <input id="ad-text" type="email" placeholder="Email Address" />
      </div>
      <div className="field">
        <label htmlFor="ad-error">With an error</label>
        <input id="ad-error" type="email" aria-invalid="true" aria-describedby="ad-error-msg" defaultValue="juan@" />
        <p id="ad-error-msg" className="form-message error">
          The email must be a valid email address.
        </p>
      </div>
      <div className="field">
        <label htmlFor="ad-select">Select</label>
        <select id="ad-select" defaultValue="">
          <option value="">Select city</option>
          <option value="1">Makati City</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="ad-empty">Empty list</label>
        <select id="ad-empty" disabled>
          <option>No Cities available</option>
        </select>
      </div>
    </section>
  );
}

/** Product cards: orderable, out of stock, without an image, a can. */
function Cards() {
  return (
    <section aria-labelledby="ad-cards">
      <h2 id="ad-cards">Cards</h2>
      <ul className="grid">
        <ProductCard product={sample(1)} />
        <ProductCard product={sample(2, { orderable: false, product_name: 'Out of stock beer' })} />
        <ProductCard product={sample(3, { product_image: null, product_name: 'Beer without image' })} />
        <ProductCard
          product={sample(4, {
            product_name: 'Tala Pale Pilsen Can 330 ml',
            types: { id: 1, name: 'Cans' },
            price_per_case: 139200,
            product_image: '/img/products/tala-pale-pilsen-can-330ml.webp',
          })}
        />
      </ul>
    </section>
  );
}

/** The overlays as they look open: the modal and the drawer. */
function Overlays() {
  return (
    <>
      <section aria-labelledby="ad-modal">
        <h2 id="ad-modal">Modal</h2>
        <div className="dialog static" role="group" aria-labelledby="ad-modal-title">
          <h3 id="ad-modal-title">Error</h3>
          <p>Something went wrong adding this product to the cart.</p>
          <button type="button">Close</button>
        </div>
      </section>
      <section aria-labelledby="ad-drawer">
        <h2 id="ad-drawer">Drawer</h2>
        <details className="drawer-demo">
          <summary>Open drawer</summary>
          <div className="drawer-panel static">
            <p>Drawer content.</p>
          </div>
        </details>
      </section>
    </>
  );
}

/** The carousel of product cards. */
function CarouselSample() {
  return (
    <section aria-labelledby="ad-carousel">
      <h2 id="ad-carousel">Carousel</h2>
      <Carousel label="Sample">
        {[1, 2, 3, 4, 5].map((i) => (
          <ProductCard key={i} product={sample(i)} />
        ))}
      </Carousel>
    </section>
  );
}

/** A living gallery of the UI's building blocks in their states. */
export function AtomicDesign() {
  const [count, setCount] = useState(1);
  return (
    <article className="atomic">
      <h1>Atomic design</h1>
      <Buttons />
      <Inputs />
      <section aria-labelledby="ad-counter">
        <h2 id="ad-counter">Quantity counter</h2>
        <QuantityCounter id="ad-qty" name="qty" label={`Quantity (${count})`} value={1} onChange={setCount} />
      </section>
      <Cards />
      <Overlays />
      <CarouselSample />
    </article>
  );
}
